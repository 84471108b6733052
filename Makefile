# benchscope - build, test, demo, bench.
#   make deps     install missing Debian packages (apt-get)
#   make          build build/benchscope
#   make test     deps + build + every test (unit, sanitizer, kernel-side)
#   make demo     a duet of the bundled example: version A vs B (B does 10 % more work)
#   make bench    overhead / speed benchmarks, printed side by side
#   make vmlinux  regenerate bpf/vmlinux/$(ARCH)/vmlinux.h from the running kernel
#   make format   clang-format every C source in place (make test checks it)
#   make fuzz     run every libFuzzer harness FUZZ_SECONDS (60) s, two at a time
#   make soak     200 waste runs of the two-thread planted program: none may die
# V=1 shows the commands.

ARCH ?= $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
BUILD ?= build
CC ?= cc
CLANG ?= clang
BPFTOOL ?= bpftool
PYTHON_REF ?= /usr/bin/python3

ifeq ($(V),1)
Q =
msg =
else
Q = @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

DEB_PKGS := clang llvm libbpf-dev bpftool libelf-dev libdw-dev zlib1g-dev libgsl-dev \
	pkg-config libbenchmark-dev systemtap-sdt-dev libjson-c-dev g++ make python3 \
	libcapstone-dev gnuplot-nox qemu-system-x86 busybox-static cpio clang-format openssl \
	catch2 golang-go cargo rustc librust-criterion-dev libclang-rt-14-dev hyperfine slurm-wlm munge \
	python3-yaml python3-jsonschema redis-server redis-tools

WARN := -Wall -Wextra -Wno-unused-parameter -Wshadow -Wformat=2 -Wundef
CFLAGS ?= -O2 -g
# stats/ sees only include/ (the layering is enforced); user/ includes its
# headers by folder ("probe/probes.h", "duet/data.h")
STATS_CFLAGS := -std=gnu11 $(WARN) $(CFLAGS) -Iinclude -D_GNU_SOURCE
ALL_CFLAGS := -std=gnu11 $(WARN) $(CFLAGS) -Iinclude -Iuser -I$(BUILD) -D_GNU_SOURCE
LDLIBS := -lbpf -lelf -ldw -lz -ljson-c -lgsl -lgslcblas -lcapstone -lm -lpthread
STATS_LDLIBS := -lgsl -lgslcblas -lm

BPF_SRCS := $(wildcard bpf/*.bpf.c)
BPF_OBJS := $(patsubst bpf/%.bpf.c,$(BUILD)/%.bpf.o,$(BPF_SRCS))
SKELS := $(patsubst bpf/%.bpf.c,$(BUILD)/%.skel.h,$(BPF_SRCS))
STATS_SRCS := $(wildcard stats/*.c)
STATS_OBJS := $(patsubst stats/%.c,$(BUILD)/stats/%.o,$(STATS_SRCS))
USER_SRCS := $(wildcard user/*.c user/*/*.c)
USER_LIB_SRCS := $(filter-out user/main.c,$(USER_SRCS))
USER_OBJS := $(patsubst user/%.c,$(BUILD)/user/%.o,$(USER_SRCS))
USER_LIB_OBJS := $(patsubst user/%.c,$(BUILD)/user/%.o,$(USER_LIB_SRCS))
HDRS := $(wildcard include/benchscope/*.h user/*.h user/*/*.h stats/*.h)

.PHONY: all deps test unit-test sanitize kernel-test demo bench vmlinux format format-check clean examples
all: $(BUILD)/benchscope examples

# ---- dependencies -----------------------------------------------------------
deps:
	$(Q)missing=$$(for p in $(DEB_PKGS); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing:" $$missing; \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get update -qq && apt-get install -y -qq --no-install-recommends $$missing >/dev/null || \
		{ echo "make deps: apt-get failed for:" $$missing >&2; exit 1; }; \
	fi

# ---- BPF --------------------------------------------------------------------
# The system include dirs clang uses for the host, so that <asm/...> resolves
# when building for the bpf target.
CLANG_BPF_SYS_INCLUDES ?= $(shell $(CLANG) -v -E - </dev/null 2>&1 \
	| sed -n '/<...> search starts here:/,/End of search list./{ s| \(/.*\)|-idirafter \1|p }')
$(BUILD)/%.tmp.bpf.o: bpf/%.bpf.c $(HDRS) $(wildcard bpf/*.bpf.h) bpf/vmlinux/$(ARCH)/vmlinux.h | $(BUILD)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Wall -Werror \
		-Ibpf/vmlinux/$(ARCH) -Iinclude $(CLANG_BPF_SYS_INCLUDES) -c $< -o $@

$(BUILD)/%.bpf.o: $(BUILD)/%.tmp.bpf.o
	$(call msg,GEN-OBJ,$@)
	$(Q)$(BPFTOOL) gen object $@ $<

$(BUILD)/%.skel.h: $(BUILD)/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@

# ---- stats (pure C, no BPF) ------------------------------------------------
$(BUILD)/stats/%.o: stats/%.c $(HDRS) | $(BUILD)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(STATS_CFLAGS) -fPIC -c $< -o $@

$(BUILD)/libbsstats.a: $(STATS_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

# ---- user space -------------------------------------------------------------
$(BUILD)/user/%.o: user/%.c $(HDRS) $(SKELS) | $(BUILD)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/benchscope: $(USER_OBJS) $(BUILD)/libbsstats.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) -o $@ $(USER_OBJS) $(BUILD)/libbsstats.a $(LDLIBS)

$(BUILD):
	$(Q)mkdir -p $(BUILD)/stats $(BUILD)/user $(BUILD)/tests

include tests/tests.mk
include bench/bench.mk
include fuzz/fuzz.mk
-include vmtest/vmtest.mk

# ---- maintenance ------------------------------------------------------------
vmlinux:
	$(Q)mkdir -p bpf/vmlinux/$(ARCH)
	$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > bpf/vmlinux/$(ARCH)/vmlinux.h

FORMAT_SRCS = $(filter-out %/vmlinux.h,$(wildcard bpf/*.c bpf/*.h include/benchscope/*.h stats/*.[ch] \
	user/*.[ch] user/*/*.[ch] tests/*.h tests/*/*.[ch] tests/progs/*.cc bench/*.c vmtest/probe/*.c fuzz/*.[ch]))
format:
	clang-format -i $(FORMAT_SRCS)

# `make test` runs this first: the tree must be clang-formatted (.clang-format)
format-check:
	$(call msg,FORMAT,check)
	$(Q)clang-format --dry-run -Werror $(FORMAT_SRCS) || \
		{ echo "make format-check: run 'make format' (clang-format)" >&2; exit 1; }

clean:
	rm -rf $(BUILD)
