// SPDX-License-Identifier: MIT
/* exit_status.c - the exit status of an errno (see exit_status.h). */
#include "util/exit_status.h"

#include <errno.h>

int bs_exit_of_errno(int err)
{
	switch (err < 0 ? -err : err) {
	case EINVAL:
	case EPROTO:
	case EBADMSG:
	case ENOENT:
	case ENOTDIR:
	case EISDIR:
	case ENAMETOOLONG:
	case ELOOP:
	case EACCES:
	case EPERM:
	case EROFS:
	case EEXIST:
		return BS_EXIT_USAGE;
	default:
		return BS_EXIT_RUNTIME;
	}
}
