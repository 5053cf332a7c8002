# Quick start:
#   make demo   - install missing deps, build, analyze the bundled sample trace
#   make check  - install missing deps, build, run every test suite
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
SAMPLE := samples/sample_cuda.json.gz
DEMO_OUT := $(BUILD)/demo

.PHONY: all deps configure build demo check check-fast fuzz sanitize bench install clean

all: build

deps:
	@bash scripts/install-deps.sh

$(BUILD)/build.ninja: CMakeLists.txt
	cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS)

configure: deps $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	./$(BUILD)/bin/tl-opt --pass-pipeline=system,compute $(SAMPLE) -o $(DEMO_OUT)
	@echo "demo: report written to $(DEMO_OUT)/analysis.md (findings: $(DEMO_OUT)/findings.json)"

check: build
	@bash scripts/check.sh $(BUILD)

clean:
	rm -rf $(BUILD)
