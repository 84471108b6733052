// Version B of the criterion test benchmark: about 10 % more work per invocation.
const WORK_PCT: u64 = 10;
include!("work_common.rs");
