# lit configuration for tl's FileCheck suites (test/*) and the conformance suite.
import os
import shutil
import lit.formats
from lit.llvm import llvm_config  # noqa: F401  (keeps lit's LLVM helpers importable)

config.name = "tl"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".test", ".json", ".yaml"]
config.excludes = ["Inputs", "Unit", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tl_obj_root, "test")

# Our tools first, then FileCheck/not/split-file from llvm-19-tools.
config.environment["PATH"] = os.pathsep.join(
    [config.tl_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
# Never let a developer's terminal settings leak into outputs.
config.environment["TL_NO_PROGRESS"] = "1"
config.environment.pop("TL_CONFIG", None)

config.substitutions.append(("%tl-opt", os.path.join(config.tl_tools_dir, "tl-opt")))
config.substitutions.append(("%tl-gen", os.path.join(config.tl_tools_dir, "tl-gen")))
config.substitutions.append(("%tl-conform", os.path.join(config.tl_tools_dir, "tl-conform")))
config.substitutions.append(("%plugindir", config.tl_plugin_dir))
config.substitutions.append(("%tl_src", config.tl_src_root))
config.substitutions.append(("%tl_obj", config.tl_obj_root))
config.substitutions.append(("%shared", config.tl_shared_traces))
config.substitutions.append(("%python", "python3"))
# The C++ compiler and LLVM's headers, for test/Layering's include checks.
config.substitutions.append(("%cxx", config.tl_cxx))
config.substitutions.append(("%llvm_include", config.llvm_include_dir))

# Real traces with reference outputs: tests needing them say REQUIRES: shared-traces
# and report UNSUPPORTED when the folder is absent.
if os.path.isdir(config.tl_shared_traces):
    config.available_features.add("shared-traces")
# The specs' hand-made example traces (../shared/spec/examples, next to the
# traces): tests needing them say REQUIRES: spec-examples.
spec_examples = os.path.join(os.path.dirname(os.path.normpath(config.tl_shared_traces)),
                             "spec", "examples")
config.substitutions.append(("%spec_examples", spec_examples))
if os.path.isdir(spec_examples):
    config.available_features.add("spec-examples")
if not config.tl_sanitizer:
    config.available_features.add("no-sanitizer")
# perf_report.xlsx is written only when tl was built with libxlsxwriter.
if getattr(config, "tl_have_xlsx", False):
    config.available_features.add("xlsx")
# The Python module tl (python/), built for Debian's interpreter: tests run
# it with %tl_python and PYTHONPATH=%tl_python_dir (or an install's dir).
if getattr(config, "tl_have_python", False):
    config.available_features.add("tl-python")
    config.substitutions.append(("%tl_python_dir", config.tl_python_dir))
    config.substitutions.append(("%tl_python_install_dir", config.tl_python_install_dir))
    config.substitutions.append(("%tl_python", config.tl_python_exe))
if "thread" in config.tl_sanitizer:
    config.available_features.add("tsan")
if "address" in config.tl_sanitizer:
    config.available_features.add("asan")
# tl-opt --mpi under Open MPI: the MPI build and an mpirun. %mpirun runs
# as root too (containers) and on more processes than cores.
mpiexec = getattr(config, "tl_mpiexec", "") or shutil.which("mpirun") or ""
config.available_features.add(
    "mpi-build" if getattr(config, "tl_have_mpi", False) else "no-mpi-build")
if getattr(config, "tl_have_mpi", False) and mpiexec and os.path.exists(mpiexec):
    config.available_features.add("mpi")
    config.substitutions.append(
        ("%mpirun", "env OMPI_ALLOW_RUN_AS_ROOT=1 "
         "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 "
         + mpiexec + " --oversubscribe"))
# chmod-based permission tests need a user the permissions apply to.
if hasattr(os, "geteuid") and os.geteuid() != 0:
    config.available_features.add("non-root")
