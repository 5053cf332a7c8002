# Quick start:
#   make demo   - install missing deps, build, analyze the bundled sample trace
#   make check  - install missing deps, build, run every test suite
# Robustness (docs/Robustness.md):
#   make check-asan - ASan+UBSan build (build-asan) running the lit + unit suites
#   make check-tsan - TSan build (build-tsan) running the pass/analysis manager
#                     tests with 4 threads
#   make fuzz       - clang-19 libFuzzer build (build-fuzz): replays the
#                     regression inputs, then fuzzes the importer for
#                     FUZZ_SECONDS (default 120), the gzip decoder
#                     against zlib for INFLATE_FUZZ_SECONDS (default 60), and
#                     the --config and --arch readers for
#                     SETTINGS_FUZZ_SECONDS (default 30) each
#   make check-all  - check + check-asan + check-tsan + fuzz
# Cost without ccache (CPU seconds, ~half that in wall time on an idle 2-core
# machine; docs/Robustness.md): check-asan ~500 build + ~130 suite,
# check-tsan ~280 build + ~10 tests, fuzz ~50 build + FUZZ_SECONDS
# + INFLATE_FUZZ_SECONDS.
# Install (docs/Python.md, docs/Plugins.md):
#   make install    - Release build in build-release, installed under PREFIX
#                     (default /usr/local): tl-opt and the other tools, the
#                     pass plugins, headers, the CMake package (find_package(TL))
#                     and the Python module tl
# Performance (docs/performance.md):
#   make bench      - Release build in build-bench, tl-gen 1 GB + 4 GB inputs
#                     and the shared traces, median of 5 runs per stage;
#                     BENCH_ARGS passes options, e.g. BENCH_ARGS=--quick
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
SAMPLE := samples/sample_cuda.json.gz
DEMO_OUT := $(BUILD)/demo

# Sanitizer builds use clang-19 at -O1 with line tables only: symbolized
# stacks, and ~40% less compile CPU than GCC 12 with the same sanitizers
# (measured on lib/Analysis/WorkloadInfo.cpp: 6.8 s vs 11.1 s user).
SAN_CC := CC=clang-19 CXX=clang++-19
SAN_CMAKE := -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE='-O1 -gline-tables-only -DNDEBUG'
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 120
INFLATE_FUZZ_SECONDS ?= 60
SETTINGS_FUZZ_SECONDS ?= 30
LIT := python3 /usr/lib/llvm-19/build/utils/lit/lit.py
PREFIX ?= /usr/local
RELEASE_BUILD ?= build-release

.PHONY: all deps deps-extra configure build demo check check-fast fuzz sanitize bench install clean \
	check-asan check-tsan check-all

all: build

deps:
	@bash scripts/install-deps.sh

# clang-19 and its runtimes for the sanitizer and fuzzer builds.
deps-extra:
	@TL_DEPS_EXTRA=1 bash scripts/install-deps.sh

$(BUILD)/build.ninja: CMakeLists.txt
	cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS)

configure: deps $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	./$(BUILD)/bin/tl-opt --pass-pipeline=system,compute $(SAMPLE) -o $(DEMO_OUT)
	@echo "demo: report written to $(DEMO_OUT)/analysis.md (findings: $(DEMO_OUT)/findings.json)"
	@echo "demo: open $(abspath $(DEMO_OUT))/analysis.html in a browser"

check: build
	@bash scripts/check.sh $(BUILD)

# ASan+UBSan: the whole lit and unit suite (conformance included when the
# shared traces are present). Leaks are reported too.
check-asan: deps-extra
	$(SAN_CC) cmake -S . -B $(ASAN_BUILD) -G Ninja -DTL_SANITIZER='address;undefined' $(SAN_CMAKE) $(CMAKE_FLAGS)
	cmake --build $(ASAN_BUILD) -j $(JOBS) --target tl-test-depends
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  bash scripts/check.sh $(ASAN_BUILD)

# TSan: only what runs passes and analyses in parallel, with 4 threads:
# PassTests (pass manager, analysis manager), the driver with its test
# plugins (test/Pass), and the full built-in pipeline over a real trace
# (Conformance/threads-full-pipeline.test, when the shared traces are there).
TSAN_FILTER := Pass|AnalysisManager|threads-full-pipeline
check-tsan: deps-extra
	$(SAN_CC) cmake -S . -B $(TSAN_BUILD) -G Ninja -DTL_SANITIZER=thread $(SAN_CMAKE) $(CMAKE_FLAGS)
	cmake --build $(TSAN_BUILD) -j $(JOBS) --target tl-tsan-depends
	TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
	  $(LIT) -sv --no-progress-bar $(TSAN_BUILD)/test/Pass $(TSAN_BUILD)/test/Unit \
	  $(TSAN_BUILD)/test/Conformance/threads-full-pipeline.test --filter='$(TSAN_FILTER)'

# libFuzzer (clang-19): regression inputs must pass, then a bounded run over
# a scratch copy of the seed corpus. Crashes land in $(FUZZ_BUILD)/artifacts;
# add each to test/Fuzz/regressions (see docs/Robustness.md).
fuzz: deps-extra
	CC=clang-19 CXX=clang++-19 cmake -S . -B $(FUZZ_BUILD) -G Ninja -DTL_ENABLE_FUZZER=ON -DTL_BUILD_TESTS=OFF
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target tl-import-fuzzer tl-inflate-fuzzer \
	  tl-config-fuzzer tl-arch-fuzzer
	./$(FUZZ_BUILD)/bin/tl-import-fuzzer -runs=0 test/Fuzz/regressions
	./$(FUZZ_BUILD)/bin/tl-config-fuzzer -runs=0 test/Fuzz/regressions-config
	./$(FUZZ_BUILD)/bin/tl-arch-fuzzer -runs=0 test/Fuzz/regressions-arch
	mkdir -p $(FUZZ_BUILD)/corpus $(FUZZ_BUILD)/inflate-corpus $(FUZZ_BUILD)/artifacts \
	  $(FUZZ_BUILD)/config-corpus $(FUZZ_BUILD)/arch-corpus
	./$(FUZZ_BUILD)/bin/tl-import-fuzzer $(FUZZ_BUILD)/corpus test/Fuzz/corpus \
	  -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
	  -artifact_prefix=$(FUZZ_BUILD)/artifacts/ -print_final_stats=1
	./$(FUZZ_BUILD)/bin/tl-inflate-fuzzer $(FUZZ_BUILD)/inflate-corpus \
	  -max_total_time=$(INFLATE_FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
	  -artifact_prefix=$(FUZZ_BUILD)/artifacts/inflate- -print_final_stats=1
	./$(FUZZ_BUILD)/bin/tl-config-fuzzer $(FUZZ_BUILD)/config-corpus test/Fuzz/corpus-config \
	  -dict=test/Fuzz/settings.dict -max_total_time=$(SETTINGS_FUZZ_SECONDS) -timeout=10 \
	  -rss_limit_mb=2048 -max_len=4096 -artifact_prefix=$(FUZZ_BUILD)/artifacts/config- \
	  -print_final_stats=1
	./$(FUZZ_BUILD)/bin/tl-arch-fuzzer $(FUZZ_BUILD)/arch-corpus test/Fuzz/corpus-arch \
	  -dict=test/Fuzz/settings.dict -max_total_time=$(SETTINGS_FUZZ_SECONDS) -timeout=10 \
	  -rss_limit_mb=2048 -max_len=4096 -artifact_prefix=$(FUZZ_BUILD)/artifacts/arch- \
	  -print_final_stats=1

check-all: check check-asan check-tsan fuzz

bench:
	bash bench/run.sh $(BENCH_ARGS)

# Release build of what is installed (no tests), then cmake's install rules
# (cmake/TLInstall.cmake, python/CMakeLists.txt).
install: deps
	cmake -S . -B $(RELEASE_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release \
	  -DTL_BUILD_TESTS=OFF -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_FLAGS)
	cmake --build $(RELEASE_BUILD) -j $(JOBS)
	cmake --install $(RELEASE_BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD)
