/* SPDX-License-Identifier: MIT */
/* version.h - benchscope's version, printed by --version and stored in every trace. */
#ifndef BENCHSCOPE_VERSION_H
#define BENCHSCOPE_VERSION_H

#define BS_VERSION "0.1.0"

#endif
