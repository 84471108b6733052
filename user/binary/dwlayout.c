/* SPDX-License-Identifier: MIT */
/* dwlayout.c - parameter locations and member offsets from DWARF (libdw). */
#include "binary/dwlayout.h"

#include <dwarf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int bs_dw_open(const char *path, struct bs_dw *dw, char *err, size_t errlen)
{
	int e;

	dw->dbg = NULL;
	dw->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (dw->fd < 0) {
		e = errno;
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(e));
		return -e;
	}
	dw->dbg = dwarf_begin(dw->fd, DWARF_C_READ);
	if (!dw->dbg) {
		snprintf(err, errlen, "%s has no DWARF debug information (%s)", path,
			 dwarf_errmsg(-1));
		close(dw->fd);
		dw->fd = -1;
		return -ENODATA;
	}
	return 0;
}

void bs_dw_close(struct bs_dw *dw)
{
	if (dw->dbg)
		dwarf_end(dw->dbg);
	if (dw->fd >= 0)
		close(dw->fd);
	dw->dbg = NULL;
	dw->fd = -1;
}

/* Depth-first search below DIE for a concrete DW_TAG_subprogram entered at addr. */
static bool find_subprogram(Dwarf_Die *die, uint64_t addr, Dwarf_Die *out, int depth)
{
	Dwarf_Die child;

	if (depth > 32 || dwarf_child(die, &child) != 0)
		return false;
	do {
		int tag = dwarf_tag(&child);
		Dwarf_Addr lo;

		if (tag == DW_TAG_subprogram) {
			if (dwarf_lowpc(&child, &lo) == 0 && lo == addr) {
				*out = child;
				return true;
			}
			continue; /* nested functions are never what a symbol names */
		}
		if (tag == DW_TAG_inlined_subroutine || tag == DW_TAG_lexical_block ||
		    tag == DW_TAG_variable || tag == DW_TAG_member ||
		    tag == DW_TAG_formal_parameter)
			continue;
		if (dwarf_haschildren(&child) && find_subprogram(&child, addr, out, depth + 1))
			return true;
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

/* The CU covering addr: through .debug_aranges, else by each CU's ranges. */
static bool cu_at(Dwarf *dbg, uint64_t addr, Dwarf_Die *cu)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	if (dwarf_addrdie(dbg, addr, cu))
		return true;
	while (dwarf_nextcu(dbg, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (dwarf_offdie(dbg, off + hsize, cu) && dwarf_haspc(cu, addr) > 0)
			return true;
		off = next;
	}
	return false;
}

/* The DWARF register holding attr's location at pc: DW_OP_regN / DW_OP_regx; -1 otherwise. */
static int reg_at(Dwarf_Attribute *attr, uint64_t pc)
{
	Dwarf_Op *expr;
	size_t len;

	if (dwarf_getlocation_addr(attr, pc, &expr, &len, 1) != 1 || len < 1)
		return -1;
	if (expr[0].atom >= DW_OP_reg0 && expr[0].atom <= DW_OP_reg31)
		return expr[0].atom - DW_OP_reg0;
	if (expr[0].atom == DW_OP_regx)
		return (int)expr[0].number;
	return -1;
}

int bs_dw_func_param(struct bs_dw *dw, uint64_t addr, unsigned idx, struct bs_dw_param *p,
		     char *fn_name, size_t fn_len, char *err, size_t errlen)
{
	Dwarf_Die cu, fn, child, type, peeled;
	Dwarf_Attribute a;
	unsigned k = 0;
	const char *s;

	memset(p, 0, sizeof(*p));
	p->entry_reg = -1;
	if (!cu_at(dw->dbg, addr, &cu) || !find_subprogram(&cu, addr, &fn, 0)) {
		snprintf(err, errlen, "no DWARF description of the function at 0x%llx",
			 (unsigned long long)addr);
		return -ENOENT;
	}
	if (fn_name && fn_len) {
		s = dwarf_formstring(dwarf_attr_integrate(&fn, DW_AT_name, &a));
		snprintf(fn_name, fn_len, "%s", s ? s : "?");
	}
	if (dwarf_child(&fn, &child) != 0) {
		snprintf(err, errlen, "the DWARF of the function at 0x%llx lists no parameters",
			 (unsigned long long)addr);
		return -ENOENT;
	}
	do {
		if (dwarf_tag(&child) != DW_TAG_formal_parameter || k++ != idx)
			continue;
		s = dwarf_formstring(dwarf_attr_integrate(&child, DW_AT_name, &a));
		snprintf(p->name, sizeof(p->name), "%s", s ? s : "");
		if (dwarf_attr(&child, DW_AT_location, &a))
			p->entry_reg = reg_at(&a, addr);
		if (!dwarf_formref_die(dwarf_attr_integrate(&child, DW_AT_type, &a), &type) ||
		    dwarf_peel_type(&type, &peeled) != 0 ||
		    dwarf_tag(&peeled) != DW_TAG_pointer_type ||
		    !dwarf_formref_die(dwarf_attr_integrate(&peeled, DW_AT_type, &a), &type) ||
		    dwarf_peel_type(&type, &p->pointee) != 0) {
			snprintf(err, errlen,
				 "parameter %u (%s) of the function at 0x%llx is not a pointer in "
				 "its DWARF",
				 idx, p->name[0] ? p->name : "unnamed", (unsigned long long)addr);
			return -EINVAL;
		}
		s = dwarf_diename(&p->pointee);
		snprintf(p->type_name, sizeof(p->type_name), "%s", s ? s : "?");
		return 0;
	} while (dwarf_siblingof(&child, &child) == 0);
	snprintf(err, errlen, "the function at 0x%llx has no parameter %u in its DWARF",
		 (unsigned long long)addr, idx);
	return -ENOENT;
}

/* A member's byte offset: a constant, or DW_OP_plus_uconst (DWARF 2). */
static int member_offset(Dwarf_Die *m, uint64_t *off)
{
	Dwarf_Attribute a;
	Dwarf_Word w;
	Dwarf_Op *expr;
	size_t len;

	if (!dwarf_attr(m, DW_AT_data_member_location, &a)) {
		*off = 0; /* a union member, or the only one */
		return 0;
	}
	if (dwarf_formudata(&a, &w) == 0) {
		*off = w;
		return 0;
	}
	if (dwarf_getlocation(&a, &expr, &len) == 0 && len == 1 &&
	    expr[0].atom == DW_OP_plus_uconst) {
		*off = expr[0].number;
		return 0;
	}
	return -ENOENT;
}

int bs_dw_member(Dwarf_Die *type, const char *name, uint64_t *off, Dwarf_Die *mtype)
{
	Dwarf_Die child, t;
	Dwarf_Attribute a;

	if (dwarf_child(type, &child) != 0)
		return -ENOENT;
	do {
		const char *n;

		if (dwarf_tag(&child) != DW_TAG_member)
			continue;
		n = dwarf_diename(&child);
		if (!n || strcmp(n, name) || member_offset(&child, off))
			continue;
		if (mtype &&
		    (!dwarf_formref_die(dwarf_attr_integrate(&child, DW_AT_type, &a), &t) ||
		     dwarf_peel_type(&t, mtype) != 0))
			return -ENOENT;
		return 0;
	} while (dwarf_siblingof(&child, &child) == 0);
	return -ENOENT;
}

static int first_pointer(Dwarf_Die *type, uint64_t *off, int depth)
{
	Dwarf_Die child, t, mt;
	Dwarf_Attribute a;

	if (dwarf_tag(type) == DW_TAG_pointer_type) {
		*off = 0;
		return 0;
	}
	if (depth > 8 || dwarf_tag(type) != DW_TAG_structure_type || dwarf_child(type, &child))
		return -ENOENT;
	do {
		uint64_t moff, inner;

		if (dwarf_tag(&child) != DW_TAG_member || member_offset(&child, &moff) ||
		    !dwarf_formref_die(dwarf_attr_integrate(&child, DW_AT_type, &a), &t) ||
		    dwarf_peel_type(&t, &mt) != 0)
			continue;
		if (first_pointer(&mt, &inner, depth + 1) == 0) {
			*off = moff + inner;
			return 0;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return -ENOENT;
}

int bs_dw_first_pointer(Dwarf_Die *type, uint64_t *off)
{
	return first_pointer(type, off, 0);
}

long bs_dw_byte_size(Dwarf_Die *type)
{
	Dwarf_Attribute a;
	Dwarf_Word w;

	if (dwarf_tag(type) == DW_TAG_pointer_type && !dwarf_attr(type, DW_AT_byte_size, &a))
		return 8;
	if (!dwarf_attr(type, DW_AT_byte_size, &a) || dwarf_formudata(&a, &w) != 0)
		return -1;
	return (long)w;
}
