# Runs every GoogleTest binary under <build>/unittests as a lit suite.
import os
import lit.formats

config.name = "tl-unit"
config.test_format = lit.formats.GoogleTest(".", "Tests")
config.test_source_root = config.tl_unittest_dir
config.test_exec_root = config.tl_unittest_dir
