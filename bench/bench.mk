# bench/bench.mk - the stats timing driver of bench/bench-stats.
# Included by the top-level Makefile.
$(BUILD)/bench/stats_bench: bench/stats_bench.c $(BUILD)/libbsstats.a $(HDRS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/libbsstats.a $(STATS_LDLIBS)
# fleet_gen: synthetic traces of many machines (bench/fleet-bench, tests)
$(BUILD)/bench/fleet_gen: bench/fleet_gen.c $(USER_LIB_OBJS) $(BUILD)/libbsstats.a $(HDRS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(USER_LIB_OBJS) $(BUILD)/libbsstats.a $(LDLIBS)
# sched_floor: empty scheduler-tracepoint programs beside a measured run (section 4)
$(BUILD)/bench/sched_floor: bench/sched_floor.c $(BUILD)/sched_floor.skel.h
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LDLIBS)
# switch_load: a sleeper per CPU, the scheduler load of section 4's second pass
$(BUILD)/bench/switch_load: bench/switch_load.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $<
