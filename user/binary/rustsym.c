/* SPDX-License-Identifier: MIT */
/* rustsym.c - legacy Rust symbol paths; every function symbol of an ELF file. */
#include "binary/rustsym.h"

#include "binary/elffile.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Append n bytes of s to out (capacity outlen, used *used); -ENOSPC when full. */
static int put(char *out, size_t outlen, size_t *used, const char *s, size_t n)
{
	if (*used + n + 1 > outlen)
		return -ENOSPC;
	memcpy(out + *used, s, n);
	*used += n;
	out[*used] = '\0';
	return 0;
}

/* "h" followed by exactly 16 hex digits. */
static bool is_hash(const char *s, size_t n)
{
	if (n != 17 || s[0] != 'h')
		return false;
	for (size_t i = 1; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* The character a '$' escape (without the '$'s) stands for; 0 when unknown. */
static int unescape(const char *e, size_t n)
{
	static const struct {
		const char *code;
		char c;
	} named[] = {{"SP", '@'}, {"BP", '*'}, {"RF", '&'}, {"LT", '<'},
		     {"GT", '>'}, {"LP", '('}, {"RP", ')'}, {"C", ','}};
	unsigned long v = 0;

	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (strlen(named[i].code) == n && !memcmp(named[i].code, e, n))
			return named[i].c;
	if (n < 2 || n > 3 || e[0] != 'u')
		return 0;
	for (size_t i = 1; i < n; i++) {
		if (!isxdigit((unsigned char)e[i]))
			return 0;
		v = v * 16 + (unsigned long)(isdigit((unsigned char)e[i])
						 ? e[i] - '0'
						 : tolower((unsigned char)e[i]) - 'a' + 10);
	}
	return v >= 0x20 && v < 0x7f ? (int)v : 0; /* printable ASCII only */
}

/* Decode one component (n bytes at s) onto out. */
static int component(const char *s, size_t n, char *out, size_t outlen, size_t *used)
{
	size_t i = 0;
	int rc;

	if (n >= 2 && s[0] == '_' && s[1] == '$')
		i = 1; /* a leading '$' is written "_$" */
	while (i < n) {
		if (s[i] == '.') {
			bool two = i + 1 < n && s[i + 1] == '.';
			if ((rc = put(out, outlen, used, two ? "::" : ".", two ? 2 : 1)))
				return rc;
			i += two ? 2 : 1;
		} else if (s[i] == '$') {
			const char *end = memchr(s + i + 1, '$', n - i - 1);
			int c = end ? unescape(s + i + 1, (size_t)(end - s - i - 1)) : 0;
			char ch = (char)c;

			if (!c)
				return -EINVAL;
			if ((rc = put(out, outlen, used, &ch, 1)))
				return rc;
			i = (size_t)(end - s) + 1;
		} else {
			size_t j = i;
			while (j < n && s[j] != '.' && s[j] != '$')
				j++;
			if ((rc = put(out, outlen, used, s + i, j - i)))
				return rc;
			i = j;
		}
	}
	return 0;
}

int bs_rust_legacy_path(const char *name, char *out, size_t outlen)
{
	const char *p;
	size_t used = 0, ncomp = 0;
	bool hashed = false;
	int rc;

	if (!outlen)
		return -ENOSPC;
	out[0] = '\0';
	if (!name || strncmp(name, "_ZN", 3) != 0)
		return -EINVAL;
	p = name + 3;
	while (*p != 'E') {
		char *endp;
		unsigned long len;

		if (!isdigit((unsigned char)*p) || hashed)
			return -EINVAL; /* nothing may follow the hash */
		len = strtoul(p, &endp, 10);
		if (!len || strnlen(endp, len) < len)
			return -EINVAL;
		if (is_hash(endp, len)) {
			hashed = true;
		} else {
			if (ncomp++ && (rc = put(out, outlen, &used, "::", 2)))
				return rc;
			if ((rc = component(endp, len, out, outlen, &used)))
				return rc;
		}
		p = endp + len;
	}
	if (!hashed || !ncomp)
		return -EINVAL;
	p++; /* the E */
	if (*p && strncmp(p, ".llvm.", 6) != 0)
		return -EINVAL;
	return 0;
}

int bs_elf_each_func(const char *path, int (*fn)(void *ctx, const struct bs_elf_func *f), void *ctx,
		     bool *has_symtab, char *err, size_t errlen)
{
	struct bs_elf ef;
	int rc = bs_elf_open(path, &ef, err, errlen);

	if (has_symtab)
		*has_symtab = false;
	if (rc)
		return rc;
	for (Elf_Scn *scn = elf_nextscn(ef.elf, NULL); scn && !rc; scn = elf_nextscn(ef.elf, scn)) {
		GElf_Shdr sh;
		Elf_Data *data;
		size_t count, i;

		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		if (sh.sh_type == SHT_SYMTAB && has_symtab)
			*has_symtab = true;
		data = elf_getdata(scn, NULL);
		if (!data || !sh.sh_entsize)
			continue;
		count = data->d_size / gelf_fsize(ef.elf, ELF_T_SYM, 1, EV_CURRENT);
		for (i = 0; i < count && !rc; i++) {
			struct bs_elf_func f;
			GElf_Sym sym;

			if (!gelf_getsym(data, (int)i, &sym))
				break;
			if (GELF_ST_TYPE(sym.st_info) != STT_FUNC)
				continue;
			f.name = elf_strptr(ef.elf, sh.sh_link, sym.st_name);
			if (!f.name || !*f.name || bs_elf_sym_offset(&ef, &sym, &f.offset))
				continue;
			f.addr = sym.st_value;
			f.size = sym.st_size;
			f.local = GELF_ST_BIND(sym.st_info) == STB_LOCAL;
			f.dynsym = sh.sh_type == SHT_DYNSYM;
			rc = fn(ctx, &f);
		}
	}
	bs_elf_close(&ef);
	return rc;
}
