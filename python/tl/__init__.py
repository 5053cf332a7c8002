"""tl: a GPU-trace analyzer for PyTorch profiler (Kineto) traces.

    import tl
    a = tl.analyze("trace.json.gz", pipeline="system,compute", arch="H100")
    a.findings          # findings.json's findings, as dicts
    a.tables["gpu_timeline"]   # perf_report_csvs/, pandas DataFrames
    a                   # in Jupyter: the analysis.html report

The analysis runs in this process (tl's session, the same code as tl-opt),
without the GIL. See docs/Python.md.
"""

import csv
import html as _html
import io
import json
import re

from . import _tl
from ._tl import Error

__all__ = ["analyze", "Analysis", "Error", "keywords", "__version__"]

try:
    import pandas as _pandas
except ImportError:  # tables are lists of dicts then
    _pandas = None

#: "tl 0.1.0 (<git hash>)"
__version__ = _tl.version()


def keywords():
    """The keyword arguments analyze() takes besides the path."""
    return list(_tl.keywords())


def analyze(path, **settings):
    """Analyze one trace; return an Analysis.

    Keywords are tl-opt's settings (docs/Driver.md) with '-' spelled '_':
    pipeline= (--pass-pipeline), arch=, threads=, config= (a YAML file the
    keywords override), out= (-o: keep the report in that directory;
    without it the report is written to a temporary directory, read back
    and removed), load_pass_plugin=, fail_on=, quiet=, ... (keywords()
    lists them). None means "not given".

    Raises tl.Error with tl-opt's one-line message (a missing or bad trace
    names the file), TypeError/ValueError for a keyword of the wrong type.
    """
    return Analysis(_tl.analyze(path, **settings))


_NUMBER = re.compile(r"^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")


def _cell(text):
    """A CSV cell without pandas: int, float, None (empty) or str."""
    if text == "":
        return None
    if _NUMBER.match(text):
        return float(text) if any(c in text for c in ".eE") else int(text)
    if text in ("inf", "-inf", "nan"):
        return float(text)
    return text


def _table(text):
    if not text.strip():  # a table the trace has no rows or columns for
        return _pandas.DataFrame() if _pandas is not None else []
    if _pandas is not None:
        # round_trip: the exact doubles the CSV's digits name.
        return _pandas.read_csv(io.StringIO(text), float_precision="round_trip")
    return [{k: _cell(v) for k, v in row.items()}
            for row in csv.DictReader(io.StringIO(text))]


class Analysis:
    """One trace's report.

    trace        the trace path
    out          the report directory, None when it was temporary
    report       findings.json as a dict (schema: docs/ReportFormat.md)
    findings     report["findings"]: one dict per finding, report order
    tables       perf_report_csvs/ name -> pandas.DataFrame (list of dicts
                 without pandas)
    csv          perf_report_csvs/ name -> the CSV text
    steps        steps.csv, the per-step table (DataFrame or list of
                 dicts), None when the trace has no ProfilerStep
    passes       the pipeline that ran, after the quality gate
    failures     failed passes: {"pass", "message"}
    fail_on      fail_on= matches: {"id", "rank", "tier", "impact", "clause"}
    diagnostics  the notes and warnings tl-opt would print on stderr
    """

    def __init__(self, raw):
        self.trace = raw["trace"]
        self.out = raw["out"]
        self.report = json.loads(raw["findings_json"])
        self.findings = self.report["findings"]
        self.csv = dict(raw["tables"])
        self.tables = {name: _table(text) for name, text in raw["tables"]}
        self.steps = _table(raw["steps_csv"]) if raw["steps_csv"] else None
        self.passes = list(raw["passes"])
        self.failures = list(raw["failures"])
        self.fail_on = list(raw["fail_on"])
        self.diagnostics = raw["diagnostics"]
        self._html = raw["html"]
        self._markdown = raw["markdown"]

    def html(self):
        """analysis.html: one self-contained page."""
        return self._html

    def markdown(self):
        """analysis.md."""
        return self._markdown

    def _repr_html_(self):
        # In an iframe: the page's styles and scripts stay out of the
        # notebook's.
        return ('<iframe srcdoc="{}" style="width:100%;height:600px;'
                'border:1px solid #ddd"></iframe>'.format(
                    _html.escape(self._html, quote=True)))

    def __repr__(self):
        return "<tl.Analysis {!r}: {} finding(s), {} table(s)>".format(
            self.trace, len(self.findings), len(self.tables))
