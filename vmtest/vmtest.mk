# vmtest/vmtest.mk - the kernel-side tests in QEMU guests, one per kernel.
# Included by the top-level Makefile.
#
#   make vmtest                        Debian 6.1 and 6.12 cloud kernels
#   make vmtest KERNELS="6.1 6.12 host"  `host` boots /boot/vmlinuz-$(uname -r)
#   make vmtest VMTEST_TESTS=test_gbench,test_run_more   a subset
#
# Kernels are downloaded once into $(BUILD)/vmtest/kernels (apt-get download,
# unpacked, not installed). See vmtest/README.md.

KERNELS ?= 6.1 6.12
VMTEST_TESTS ?= all
VMTEST_PROBE := $(BUILD)/vmtest/probe
VMTEST_PROBES := $(patsubst vmtest/probe/%.bpf.c,$(VMTEST_PROBE)/probe_%,$(wildcard vmtest/probe/*.bpf.c)) \
	$(VMTEST_PROBE)/hold_tracepoints

.PHONY: vmtest vmtest-build

# Feature probes (a BPF object and its loader, run in each guest) and the
# guest helper hold_tracepoints.
$(VMTEST_PROBE)/%.tmp.bpf.o: vmtest/probe/%.bpf.c bpf/vmlinux/$(ARCH)/vmlinux.h
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Wall -Werror \
		-Ibpf/vmlinux/$(ARCH) $(CLANG_BPF_SYS_INCLUDES) -c $< -o $@
$(VMTEST_PROBE)/%.bpf.o: $(VMTEST_PROBE)/%.tmp.bpf.o
	$(Q)$(BPFTOOL) gen object $@ $<
$(VMTEST_PROBE)/%.skel.h: $(VMTEST_PROBE)/%.bpf.o
	$(Q)$(BPFTOOL) gen skeleton $< > $@
$(VMTEST_PROBE)/probe_%: vmtest/probe/%.c $(VMTEST_PROBE)/%.skel.h
	$(call msg,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -I$(VMTEST_PROBE) -o $@ $< -lbpf -lelf -lz -lpthread
# guest helper (see the file)
$(VMTEST_PROBE)/hold_tracepoints: vmtest/probe/hold_tracepoints.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< -lbpf

.PRECIOUS: $(VMTEST_PROBE)/%.tmp.bpf.o $(VMTEST_PROBE)/%.bpf.o $(VMTEST_PROBE)/%.skel.h

# the BPF objects are named so that make keeps them (bpftool in the guest
# loads them for the verifier log of a failed load)
vmtest-build: all $(KERNEL_TESTS) $(VMTEST_PROBES) $(BPF_OBJS)

vmtest: deps
	$(Q)$(MAKE) --no-print-directory vmtest-build
	$(Q)BUILD=$(BUILD) KERNELS="$(KERNELS)" BS_VMTEST_TESTS=$(VMTEST_TESTS) vmtest/run

# `make test` runs vmtest from tests/run-tests when QEMU is present.
unit-test: $(VMTEST_PROBES) $(BPF_OBJS)
