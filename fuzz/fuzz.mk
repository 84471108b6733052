# fuzz/fuzz.mk - libFuzzer harnesses of every parser of outside data.
# Included by the top-level Makefile.
#
#   make fuzz-build                build every harness into $(BUILD)/fuzz/
#   make fuzz [FUZZ_SECONDS=N]     run each N s (default 60), two at a time
#                                  (fuzz/run-fuzz); non-zero on any crash
#   make fuzz FUZZ_ONLY="trace json"  run only those harnesses
#
# user/ and stats/ are compiled again with clang, coverage-instrumented
# (-fsanitize=fuzzer-no-link) and with ASan+UBSan, into one archive the
# harnesses link against; libFuzzer is clang's (libclang-rt-14-dev).
# Seeds: fuzz/corpus/HARNESS/ (real files, committed, never written to);
# what a run finds goes to $(BUILD)/fuzz/corpus/HARNESS/, crashes to
# $(BUILD)/fuzz/crashes/. Dictionaries: fuzz/dict/HARNESS.dict.

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS := $(FUZZ_SAN) -fsanitize=fuzzer-no-link

# One line per `benchscope import` format: NAME:FUNCTION:HEADER, the
# importer's function (with bs_import_duet_csv's signature) and its header
# under user/; the harness is fuzz_import_NAME, seeded by
# fuzz/corpus/import_NAME/ (fuzz/fuzz_import.c).
FUZZ_IMPORTERS := \
	duet_csv:bs_import_duet_csv:import/duet.h

# The run-trace formats of user/import/formats.h (gbench, hyperfine,
# criterion, go, pyperf, jmh) share one harness, fuzz_import_formats
# (fuzz/fuzz_import_formats.c): its first input byte picks the format.
FUZZ_HARNESSES := trace trace_blocks json probe_site \
	$(foreach i,$(FUZZ_IMPORTERS),import_$(firstword $(subst :, ,$(i)))) import_formats
FUZZ_BINS := $(patsubst %,$(FUZZ_DIR)/fuzz_%,$(FUZZ_HARNESSES))
FUZZ_ONLY ?= $(FUZZ_HARNESSES)

FUZZ_USER_OBJS := $(patsubst user/%.c,$(FUZZ_DIR)/obj/user/%.o,$(USER_LIB_SRCS))
FUZZ_STATS_OBJS := $(patsubst stats/%.c,$(FUZZ_DIR)/obj/stats/%.o,$(STATS_SRCS))
FUZZ_LIB := $(FUZZ_DIR)/libbsfuzz.a
FUZZ_HDRS := $(HDRS) $(wildcard fuzz/*.h)

$(FUZZ_DIR)/obj/user/%.o: user/%.c $(HDRS) $(SKELS)
	$(call msg,CC-FUZZ,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(ALL_CFLAGS) $(FUZZ_CFLAGS) -c $< -o $@
$(FUZZ_DIR)/obj/stats/%.o: stats/%.c $(HDRS)
	$(call msg,CC-FUZZ,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(STATS_CFLAGS) $(FUZZ_CFLAGS) -c $< -o $@
$(FUZZ_LIB): $(FUZZ_USER_OBJS) $(FUZZ_STATS_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

FUZZ_LINK = $(FUZZ_CC) $(ALL_CFLAGS) -Ifuzz $(FUZZ_SAN) -fsanitize=fuzzer
$(FUZZ_DIR)/fuzz_trace: fuzz/fuzz_trace.c $(FUZZ_LIB) $(FUZZ_HDRS)
	$(call msg,LINK-FUZZ,$@)
	$(Q)$(FUZZ_LINK) -o $@ $< $(FUZZ_LIB) $(LDLIBS)
$(FUZZ_DIR)/fuzz_trace_blocks: fuzz/fuzz_trace.c $(FUZZ_LIB) $(FUZZ_HDRS)
	$(call msg,LINK-FUZZ,$@)
	$(Q)$(FUZZ_LINK) -DBS_FUZZ_BLOCKS -o $@ $< $(FUZZ_LIB) $(LDLIBS)
$(FUZZ_DIR)/fuzz_json: fuzz/fuzz_json.c $(FUZZ_LIB) $(FUZZ_HDRS)
	$(call msg,LINK-FUZZ,$@)
	$(Q)$(FUZZ_LINK) -o $@ $< $(FUZZ_LIB) $(LDLIBS)
$(FUZZ_DIR)/fuzz_probe_site: fuzz/fuzz_probe_site.c $(FUZZ_LIB) $(FUZZ_HDRS)
	$(call msg,LINK-FUZZ,$@)
	$(Q)$(FUZZ_LINK) -o $@ $< $(FUZZ_LIB) $(LDLIBS)
# an explicit rule: it wins over the pattern rule of fuzz_import_NAME below
$(FUZZ_DIR)/fuzz_import_formats: fuzz/fuzz_import_formats.c $(FUZZ_LIB) $(FUZZ_HDRS)
	$(call msg,LINK-FUZZ,$@)
	$(Q)$(FUZZ_LINK) -o $@ $< $(FUZZ_LIB) $(LDLIBS)
# fuzz_import_NAME: the importer FUNCTION of HEADER, from the FUZZ_IMPORTERS line NAME:FUNCTION:HEADER
fuzz_import_spec = $(subst :, ,$(filter $(1):%,$(FUZZ_IMPORTERS)))
$(FUZZ_DIR)/fuzz_import_%: fuzz/fuzz_import.c $(FUZZ_LIB) $(FUZZ_HDRS)
	$(call msg,LINK-FUZZ,$@)
	$(Q)$(FUZZ_LINK) -DBS_FUZZ_IMPORT_FN=$(word 2,$(call fuzz_import_spec,$*)) \
		-DBS_FUZZ_IMPORT_H='"$(word 3,$(call fuzz_import_spec,$*))"' -o $@ $< $(FUZZ_LIB) $(LDLIBS)

.PHONY: fuzz fuzz-build
fuzz-build: $(FUZZ_BINS) $(BUILD)/progs/usdt_loop
fuzz: fuzz-build
	$(Q)BUILD=$(BUILD) FUZZ_SECONDS=$(FUZZ_SECONDS) fuzz/run-fuzz $(FUZZ_ONLY)
