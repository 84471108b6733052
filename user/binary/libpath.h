/* SPDX-License-Identifier: MIT */
/*
 * libpath.h - find binaries the way the shell (execvp) and the dynamic
 * loader (ld.so) would, so that `BIN:SYMBOL` probe specifications may name
 * a library ("libbenchmark", "benchmark") instead of a path.
 *
 * Functions return 0 or -errno and never print; failures that a user must
 * act on come with a one-line reason in err.
 */
#ifndef BENCHSCOPE_LIBPATH_H
#define BENCHSCOPE_LIBPATH_H

#include <stddef.h>

/**
 * Resolve the command name CMD like execvp(3): a name containing '/' is
 * taken as is; otherwise the directories of $PATH (default "/bin:/usr/bin";
 * an empty element is the current directory) are searched for an
 * executable regular file. out receives the path found (not canonicalised).
 * 0, -ENOENT, -EACCES (found but not executable), -ENAMETOOLONG.
 */
int bs_which(const char *cmd, char *out, size_t outlen);

/**
 * Resolve BIN for the program EXE (a path to an ELF executable, or to a
 * "#!" script, whose interpreter is then used):
 *   - BIN containing '/' is a path, taken as is (it must exist);
 *   - BIN equal to the basename of EXE (or of its interpreter) is EXE;
 *   - otherwise BIN names a library of EXE's DT_NEEDED closure, searched
 *     breadth-first like ld.so: DT_RPATH of the needing object and its
 *     loaders (when it has no DT_RUNPATH), LD_LIBRARY_PATH, DT_RUNPATH
 *     ($ORIGIN, $LIB, $PLATFORM expanded), /etc/ld.so.cache, then the
 *     default directories; only files of EXE's ELF class and machine count.
 *     Spellings: the exact soname or file name ("libbenchmark.so.1debian"),
 *     "libbenchmark.so", "libbenchmark", "benchmark".
 * out receives the canonical absolute path (realpath).
 * Errors: -ENOENT (with err such as "library 'libfoo' is not among the
 * libraries ./prog loads (it loads: libbenchmark.so.1debian, ...)"),
 * -ENOEXEC (EXE is not ELF), -ENAMETOOLONG, -ENOMEM, other -errno.
 */
int bs_resolve_binary(const char *exe, const char *bin, char *out, size_t outlen, char *err,
		      size_t errlen);

/**
 * The resolved DT_NEEDED closure of EXE (canonical absolute paths,
 * breadth-first load order, EXE itself excluded; libraries the loader would
 * not find are left out). *paths_out is NULL when *n_out is 0.
 * 0, -ENOEXEC, -ENOMEM, other -errno. Free with bs_free_strv.
 */
int bs_needed_libs(const char *exe, char ***paths_out, size_t *n_out);

/** Free N strings of V and V itself (NULL allowed). */
void bs_free_strv(char **v, size_t n);

#endif
