/* SPDX-License-Identifier: MIT */
/*
 * exit_status.h - the one exit-status table of every benchscope subcommand.
 *
 * A status means the same thing whichever subcommand returns it, so a
 * script or a CI gate can act on it without knowing the subcommand.
 * README ("Exit status") and every `--help` print BS_EXIT_STATUS_HELP.
 */
#ifndef BENCHSCOPE_EXIT_STATUS_H
#define BENCHSCOPE_EXIT_STATUS_H

enum bs_exit {
	BS_EXIT_OK = 0,		   /**< done (duet: no regression beyond the gate) */
	BS_EXIT_RUNTIME = 1,	   /**< runtime error: BPF load or attach, an unwritable output */
	BS_EXIT_USAGE = 2,	   /**< bad usage or input: one line on stderr */
	BS_EXIT_NO_DATA = 3,	   /**< no iteration recorded, no usable run */
	BS_EXIT_HARNESS = 4,	   /**< the harness or profiled program failed; data kept */
	BS_EXIT_REGRESSION = 5,	   /**< duet, compare: B slower than --fail-on-regression allows */
	BS_EXIT_UNSUPPORTED = 6,   /**< this machine lacks what the command needs */
	BS_EXIT_INTERRUPTED = 130, /**< SIGINT or SIGTERM; data kept */
};

/**
 * bs_exit_of_errno - the exit status of a failure to read an input or to
 * create or write an output, given as its errno (either sign):
 * BS_EXIT_USAGE for what is wrong with what the user named - bad data
 * (EINVAL, EPROTO, EBADMSG), a path that cannot be opened or created
 * (ENOENT, ENOTDIR, EISDIR, ENAMETOOLONG, ELOOP, EACCES, EPERM, EROFS,
 * EEXIST); BS_EXIT_RUNTIME for the rest (ENOMEM; EIO, ENOSPC, EDQUOT, EFBIG
 * while reading or writing).
 */
int bs_exit_of_errno(int err);

/** The table as --help prints it (after argp's "\v"). */
#define BS_EXIT_STATUS_HELP                                                                        \
	"Exit status (every subcommand): 0 ok; 1 runtime error; 2 bad usage or input;\n"           \
	"3 no data (no iteration recorded, no usable run); 4 the harness or program\n"             \
	"failed (data kept); 5 regression beyond --fail-on-regression (duet, compare);\n"          \
	"6 this machine lacks what the command needs (see benchscope doctor);\n"                   \
	"130 interrupted (data kept)."

#endif
