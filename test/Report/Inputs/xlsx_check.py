"""Read perf_report.xlsx back (openpyxl) and check it against the CSVs.

usage: xlsx_check.py <report-dir> [<reference-csv-dir>]

Checks, one line on stderr each and exit 1 when one fails:
  * the sheets are the CSV files of <report-dir>/perf_report_csvs (and, when
    given, of the reference's folder), in the reference's order (spec
    tracelens-perf-report.md 6.0): gpu_timeline, ops_summary_by_category,
    ops_summary, ops_unique_args, unified_perf_summary, the perf sheets,
    kernel_summary, short_kernel_histogram, short_kernels_summary,
    coll_analysis;
  * every sheet: header row = the CSV header, bold, frozen (panes at A2),
    autofilter over header and rows, every column given a width;
  * every cell = its CSV field: empty <-> no value, numbers equal to the
    field read as a float (to 1e-15 relative: libxlsxwriter writes 16
    significant digits), booleans True/False, text verbatim; numbers
    carry the column's format ("0.00" for percent columns, "#,##0" for
    integer columns, "#,##0.0##" otherwise).
Prints "<n> sheets, <n> cells".
"""
import csv
import os
import re
import sys

import openpyxl
from openpyxl.utils import get_column_letter

ORDER_HEAD = ["gpu_timeline", "ops_summary_by_category", "ops_summary", "ops_unique_args",
              "unified_perf_summary"]
ORDER_TAIL = ["kernel_summary", "short_kernel_histogram", "short_kernels_summary", "coll_analysis"]


def rank(name):
    if name in ORDER_HEAD:
        return ORDER_HEAD.index(name)
    if name in ORDER_TAIL:
        return 100 + ORDER_TAIL.index(name)
    return 50  # a perf sheet


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        text = f.read()
    if text == "\n":
        return []
    return list(csv.reader(text.splitlines(keepends=True)))


def main():
    out = sys.argv[1]
    csv_dir = os.path.join(out, "perf_report_csvs")
    stems = sorted(f[:-4] for f in os.listdir(csv_dir) if f.endswith(".csv"))
    errors = []
    if len(sys.argv) > 2:
        ref = sorted(f[:-4] for f in os.listdir(sys.argv[2]) if f.endswith(".csv"))
        if ref != stems:
            errors.append("CSV files %r, the reference has %r" % (stems, ref))
    wb = openpyxl.load_workbook(os.path.join(out, "perf_report.xlsx"))
    if sorted(wb.sheetnames) != stems:
        errors.append("sheets %r, CSVs %r" % (wb.sheetnames, stems))
    ranks = [rank(n) for n in wb.sheetnames]
    if ranks != sorted(ranks):
        errors.append("sheet order %r" % wb.sheetnames)
    cells = 0
    for name in wb.sheetnames:
        ws = wb[name]
        rows = read_csv(os.path.join(csv_dir, name + ".csv"))
        if not rows:
            if ws.max_row > 1 or ws.cell(1, 1).value is not None:
                errors.append("%s: CSV is empty, sheet is not" % name)
            continue
        header, body = rows[0], rows[1:]
        ncol = len(header)
        if ws.freeze_panes != "A2":
            errors.append("%s: freeze_panes %r" % (name, ws.freeze_panes))
        want_filter = "A1:%s%d" % (get_column_letter(ncol), len(body) + 1)
        if ws.auto_filter.ref != want_filter:
            errors.append("%s: autofilter %r, want %r" % (name, ws.auto_filter.ref, want_filter))
        if ws.max_row != len(body) + 1 or ws.max_column != ncol:
            errors.append("%s: %dx%d cells, CSV %dx%d" % (name, ws.max_row, ws.max_column,
                                                        len(body) + 1, ncol))
        for c in range(1, ncol + 1):
            h = ws.cell(1, c)
            if h.value != header[c - 1] or not h.font.b:
                errors.append("%s: header %d %r (bold %s), CSV %r" % (name, c, h.value, h.font.b,
                                                                     header[c - 1]))
            dim = ws.column_dimensions[get_column_letter(c)]
            if not dim.width or dim.width < 8:
                errors.append("%s: column %d width %r" % (name, c, dim.width))
        for r, fields in enumerate(body, start=2):
            for c, field in enumerate(fields, start=1):
                cell = ws.cell(r, c)
                v = cell.value
                cells += 1
                where = "%s!%s%d" % (name, get_column_letter(c), r)
                if field == "":
                    ok = v is None
                elif isinstance(v, bool):
                    ok = str(v) == field
                elif isinstance(v, (int, float)):
                    # libxlsxwriter writes 16 significant digits (Excel
                    # itself shows 15): equal to 1e-15 relative.
                    a, b = float(field), float(v)
                    ok = abs(a - b) <= 1e-15 * max(abs(a), abs(b))
                    col = header[c - 1].lower()
                    pct = "%" in col or "percent" in col or "pct" in col
                    fmt = cell.number_format
                    if pct:
                        ok = ok and fmt == "0.00"
                    else:
                        ok = ok and fmt in ("#,##0", "#,##0.0##")
                        if fmt == "#,##0" and not re.fullmatch(r"-?\d+", field):
                            ok = False
                else:
                    ok = v == field
                if not ok:
                    errors.append("%s: %r (format %s), CSV %r" % (where, v, cell.number_format, field))
                    if len(errors) > 20:
                        break
    for e in errors[:20]:
        print("xlsx_check: " + e, file=sys.stderr)
    print("%d sheets, %d cells" % (len(wb.sheetnames), cells))
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
