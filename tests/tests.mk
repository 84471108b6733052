# tests/tests.mk - test programs, example harnesses and the test entry points.
# Included by the top-level Makefile.
#
#   tests/stats/test_*.c   unit tests of stats/ (no BPF, no root)
#   tests/user/test_*.c    unit tests of user/ modules that need no BPF
#   tests/kernel/test_*.sh tests that load BPF (root); they skip with a reason elsewhere
#   tests/progs/*.c|*.cc   ground-truth workloads and example harnesses
# Every test prints "NAME: N passed, N failed, N skipped"; tests/run-tests sums them.

ASAN := $(BUILD)/asan
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

STATS_TESTS := $(patsubst tests/stats/%.c,$(BUILD)/tests/stats/%,$(wildcard tests/stats/test_*.c))
USER_TESTS := $(patsubst tests/user/%.c,$(BUILD)/tests/user/%,$(wildcard tests/user/test_*.c))
ASAN_TESTS := $(patsubst $(BUILD)/tests/%,$(ASAN)/tests/%,$(STATS_TESTS) $(USER_TESTS))
PROGS_C := $(patsubst tests/progs/%.c,$(BUILD)/progs/%,$(wildcard tests/progs/*.c))
PROGS_CC := $(patsubst tests/progs/%.cc,$(BUILD)/progs/%,$(wildcard tests/progs/*.cc)) \
	$(BUILD)/progs/gbench_example_b \
	$(BUILD)/progs/gbench_example_b3
# Go test binaries (`go test -c`, Debian's golang-go): the harness, the same
# without DWARF (-ldflags=-w) and stripped, for --preset go's bad input
PROGS_GO := $(BUILD)/progs/gobench.test $(BUILD)/progs/gobench_nodwarf.test \
	$(BUILD)/progs/gobench_stripped.test
PROGS := $(PROGS_C) $(PROGS_CC) $(PROGS_GO)

examples: $(PROGS)

$(BUILD)/tests/stats/%: tests/stats/%.c $(BUILD)/libbsstats.a $(HDRS) tests/test.h
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -Itests -o $@ $< $(BUILD)/libbsstats.a $(STATS_LDLIBS)

$(BUILD)/tests/user/%: tests/user/%.c $(USER_LIB_OBJS) $(BUILD)/libbsstats.a $(HDRS) tests/test.h
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -Itests -o $@ $< $(USER_LIB_OBJS) $(BUILD)/libbsstats.a $(LDLIBS)

# Sanitizer builds: stats/ and user/ compiled again with ASan+UBSan.
$(ASAN)/stats/%.o: stats/%.c $(HDRS)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(STATS_CFLAGS) $(SAN_FLAGS) -c $< -o $@
$(ASAN)/user/%.o: user/%.c $(HDRS) $(SKELS)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -c $< -o $@
ASAN_STATS_OBJS := $(patsubst stats/%.c,$(ASAN)/stats/%.o,$(STATS_SRCS))
ASAN_USER_LIB_OBJS := $(patsubst user/%.c,$(ASAN)/user/%.o,$(USER_LIB_SRCS))
$(ASAN)/tests/stats/%: tests/stats/%.c $(ASAN_STATS_OBJS) tests/test.h
	$(call msg,CC-ASAN,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -Itests -o $@ $< $(ASAN_STATS_OBJS) $(STATS_LDLIBS)
$(ASAN)/tests/user/%: tests/user/%.c $(ASAN_USER_LIB_OBJS) $(ASAN_STATS_OBJS) tests/test.h
	$(call msg,CC-ASAN,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -Itests -o $@ $< $(ASAN_USER_LIB_OBJS) $(ASAN_STATS_OBJS) $(LDLIBS)
$(ASAN)/benchscope: $(patsubst user/%.c,$(ASAN)/user/%.o,$(USER_SRCS)) $(ASAN_STATS_OBJS)
	$(call msg,LINK-ASAN,$@)
	$(Q)$(CC) $(SAN_FLAGS) -o $@ $^ $(LDLIBS)

# Example harnesses and ground-truth workloads (the library itself is unmodified).
$(BUILD)/progs/%: tests/progs/%.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) -std=gnu11 -O2 -g $(WARN) -o $@ $< -lm -lpthread
$(BUILD)/progs/%: tests/progs/%.cc
	$(call msg,CXX,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)g++ -std=c++17 -O2 -g -Wall -Wextra -o $@ $< -lbenchmark -lpthread

# version B of the bundled example: about 10 % more work per invocation
$(BUILD)/progs/gbench_example_b: tests/progs/gbench_example.cc
	$(call msg,CXX,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)g++ -std=c++17 -O2 -g -Wall -Wextra -DBS_WORK_PCT=10 -o $@ $< -lbenchmark -lpthread

# version B3: about 3 % more work per invocation (every 33rd repeated), the
# slowdown bench/duet-bench must detect
$(BUILD)/progs/gbench_example_b3: tests/progs/gbench_example.cc
	$(call msg,CXX,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)g++ -std=c++17 -O2 -g -Wall -Wextra -DBS_WORK_PCT=3 -o $@ $< -lbenchmark -lpthread

# offline: the module has no dependencies; caches under the build directory
GO ?= go
GO_ENV = GOCACHE=$(abspath $(BUILD))/go/cache GOPATH=$(abspath $(BUILD))/go/path \
	GOFLAGS=-mod=mod GO111MODULE=on GOPROXY=off GOTOOLCHAIN=local CGO_ENABLED=0
GOBENCH_SRCS := $(wildcard tests/progs/gobench/*.go) tests/progs/gobench/go.mod
$(BUILD)/progs/gobench.test: $(GOBENCH_SRCS)
	$(call msg,GO,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)cd tests/progs/gobench && $(GO_ENV) $(GO) test -c -o $(abspath $@) .
$(BUILD)/progs/gobench_nodwarf.test: $(GOBENCH_SRCS)
	$(call msg,GO,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)cd tests/progs/gobench && $(GO_ENV) $(GO) test -c -ldflags=-w -o $(abspath $@) .
$(BUILD)/progs/gobench_stripped.test: $(BUILD)/progs/gobench.test
	$(call msg,STRIP,$@)
	$(Q)strip -o $@ $<
# Catch2 2.x benchmarks (Debian's header-only catch2, unmodified; one
# translation unit with CATCH_CONFIG_MAIN), for --preset catch2: version A
# (with DWARF, which test_catch2 reads), version B (10 % more work per
# invocation; no DWARF, as many release builds), and A stripped (bad input;
# vmtest guests have no strip)
CATCH2_HDR := /usr/include/catch2/catch.hpp
$(BUILD)/progs/catch2_bench: tests/progs/catch2_bench.cc $(CATCH2_HDR)
	$(call msg,CXX,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)g++ -std=c++17 -O2 -g -Wall -Wextra -o $@ $<
$(BUILD)/progs/catch2_bench_b: tests/progs/catch2_bench.cc $(CATCH2_HDR)
	$(call msg,CXX,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)g++ -std=c++17 -O2 -Wall -Wextra -DBS_WORK_PCT=10 -o $@ $<
$(BUILD)/progs/catch2_bench_stripped: $(BUILD)/progs/catch2_bench
	$(call msg,STRIP,$@)
	$(Q)strip -o $@ $<
examples: $(BUILD)/progs/catch2_bench_b $(BUILD)/progs/catch2_bench_stripped
# The criterion.rs benchmark (tests/progs/criterion_bench): versions A and B,
# A stripped of its symbols and A without debug info, built by Debian's cargo
# and rustc (never a rustup toolchain earlier in PATH) offline against Debian's
# crate registry
# (librust-criterion-dev): a cargo source replacement of crates.io by the
# directory /usr/share/cargo/registry, as Debian's dh-cargo does, in a
# CARGO_HOME and a target dir under $(BUILD). The sources are copied there
# too, so that cargo writes its Cargo.lock outside the source tree. About 4
# min of CPU from scratch (3 min on the 2-vCPU VM), seconds after.
CARGO ?= /usr/bin/cargo
RUSTC ?= /usr/bin/rustc
CRIT_SRC := tests/progs/criterion_bench
CRIT_DIR := $(BUILD)/criterion_bench
CRIT_PROGS := $(BUILD)/progs/criterion_bench $(BUILD)/progs/criterion_bench_b \
	$(BUILD)/progs/criterion_bench_stripped $(BUILD)/progs/criterion_bench_nodebug
examples: $(CRIT_PROGS)
$(BUILD)/progs/criterion_bench: $(CRIT_SRC)/Cargo.toml $(wildcard $(CRIT_SRC)/benches/*.rs)
	$(call msg,CARGO,$@)
	$(Q)mkdir -p $(CRIT_DIR)/home $(CRIT_DIR)/benches $(dir $@)
	$(Q)cp $(CRIT_SRC)/Cargo.toml $(CRIT_DIR)/ && cp $(CRIT_SRC)/benches/*.rs $(CRIT_DIR)/benches/
	$(Q)printf '%s\n' '[source.crates-io]' 'replace-with = "debian"' '[source.debian]' \
		'directory = "/usr/share/cargo/registry"' '[net]' 'offline = true' \
		>$(CRIT_DIR)/home/config.toml
	$(Q)cd $(CRIT_DIR) && CARGO_HOME=$(abspath $(CRIT_DIR))/home RUSTC=$(RUSTC) \
		$(CARGO) bench --no-run --offline --quiet --message-format=json \
		--target-dir $(abspath $(CRIT_DIR))/target >cargo-messages.json
	$(Q)for t in work work_b; do \
		exe=$$(grep '"kind":\["bench"\]' $(CRIT_DIR)/cargo-messages.json | grep "\"name\":\"$$t\"" | \
			grep -o '"executable":"[^"]*"' | cut -d'"' -f4 | tail -n 1); \
		[ -x "$$exe" ] || { echo "$@: cargo built no bench $$t" >&2; exit 1; }; \
		case $$t in work) cp "$$exe" $@; strip --strip-all -o $@_stripped "$$exe"; \
			strip --strip-debug -o $@_nodebug "$$exe" ;; \
		*) cp "$$exe" $@_b ;; esac; \
	done
$(filter-out $(BUILD)/progs/criterion_bench,$(CRIT_PROGS)): $(BUILD)/progs/criterion_bench
	@:

unit-test: $(STATS_TESTS) $(USER_TESTS)
sanitize: $(ASAN_TESTS) $(ASAN)/benchscope

# TEST_FUZZ_SECONDS (default 20; `make fuzz` runs 60): each libFuzzer
# harness runs that long in `make test`, TEST_FUZZ_JOBS (3) at a time,
# between the kernel tests and the vmtest; 0 skips them. Three at a time on 2
# vCPUs: the six harnesses take two rounds (about 45 s) instead of three,
# and each gets about 13 s of CPU time: a smoke run over the seed corpora,
# the long runs are `make fuzz`'s. make test must stay under CI's 30
# minutes: two at a time it took 28.5 on the AMD/PVM VM, with 60 s 31
# minutes on an AMD/KVM VM with another task on one CPU, and with 45 s 31
# minutes again on an AMD EPYC/KVM VM whose 6.1 guest took 913 s. The
# build runs one job per CPU (serially it took 8.5 minutes, in parallel
# 5.8); the tests run one at a time.
TEST_FUZZ_SECONDS ?= 20
TEST_FUZZ_JOBS ?= 3
# when make test began (tests/run-tests: the 6.1 guest's budget)
MAKE_T0 := $(shell date +%s)
test: deps
	$(Q)$(MAKE) --no-print-directory format-check
	$(Q)$(MAKE) --no-print-directory -j$(shell nproc) all unit-test sanitize $(if $(filter-out 0,$(TEST_FUZZ_SECONDS)),fuzz-build)
	$(Q)BUILD=$(BUILD) BS_MAKE_T0=$(MAKE_T0) FUZZ_SECONDS=$(TEST_FUZZ_SECONDS) FUZZ_JOBS=$(TEST_FUZZ_JOBS) tests/run-tests

demo: deps
	$(Q)$(MAKE) --no-print-directory all
	$(BUILD)/benchscope duet --preset gbench --runs 5 --plot $(BUILD)/demo-duet.svg -o $(BUILD)/demo-duet.trace \
		-A '$(BUILD)/progs/gbench_example --benchmark_repetitions=5 --benchmark_min_time=0.05' \
		-B '$(BUILD)/progs/gbench_example_b --benchmark_repetitions=5 --benchmark_min_time=0.05'

bench: deps
	$(Q)$(MAKE) --no-print-directory all $(BUILD)/bench/stats_bench $(BUILD)/bench/fleet_gen $(BUILD)/bench/sched_floor $(BUILD)/bench/switch_load
	$(Q)BUILD=$(BUILD) bench/run-bench

# The waste soak (not in make test): SOAK_RUNS runs of the two-thread planted
# program, none may die (tests/soak/waste-soak).
.PHONY: soak
soak: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)BUILD=$(BUILD) tests/soak/waste-soak

# Kernel-side tests: C programs that run build/benchscope on real harnesses.
KERNEL_TESTS := $(patsubst tests/kernel/%.c,$(BUILD)/tests/kernel/%,$(wildcard tests/kernel/test_*.c))
$(BUILD)/tests/kernel/%: tests/kernel/%.c tests/kernel/ktest.h $(USER_LIB_OBJS) $(BUILD)/libbsstats.a $(HDRS) tests/test.h
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -Itests -Itests/kernel -o $@ $< $(USER_LIB_OBJS) $(BUILD)/libbsstats.a $(LDLIBS)
unit-test: $(KERNEL_TESTS)
