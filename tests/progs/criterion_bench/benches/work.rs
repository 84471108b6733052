// Version A of the criterion test benchmark (see work_common.rs).
const WORK_PCT: u64 = 0;
include!("work_common.rs");
