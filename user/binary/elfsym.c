/* SPDX-License-Identifier: MIT */
/* elfsym.c - find function symbols (mangled or demangled) and their file offsets. */
#include "binary/elfsym.h"

#include "binary/elffile.h"
#include "binary/symmatch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A defined function symbol; name points into libelf's string data. */
struct func_sym {
	const char *name;
	uint64_t off, size;
};

struct func_list {
	struct func_sym *v;
	size_t n, cap;
};

static int push_func(struct func_list *l, const char *name, uint64_t off, uint64_t size)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 1024;
		struct func_sym *v = realloc(l->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = (struct func_sym){name, off, size};
	return 0;
}

/* Collect every defined function symbol of .symtab and .dynsym. */
static int collect_funcs(struct bs_elf *ef, struct func_list *l)
{
	for (Elf_Scn *scn = elf_nextscn(ef->elf, NULL); scn; scn = elf_nextscn(ef->elf, scn)) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		if (!data || !sh.sh_entsize)
			continue;
		size_t count = data->d_size / gelf_fsize(ef->elf, ELF_T_SYM, 1, EV_CURRENT);
		for (size_t i = 0; i < count; i++) {
			GElf_Sym sym;
			uint64_t off;
			if (!gelf_getsym(data, (int)i, &sym))
				break;
			int type = GELF_ST_TYPE(sym.st_info);
			if (type != STT_FUNC && type != STT_GNU_IFUNC)
				continue;
			const char *name = elf_strptr(ef->elf, sh.sh_link, sym.st_name);
			if (!name || !*name || bs_elf_sym_offset(ef, &sym, &off))
				continue;
			if (push_func(l, name, off, sym.st_size))
				return -ENOMEM;
		}
	}
	return 0;
}

/* NAME equals SYMBOL, ignoring a "@VERSION"/"@@VERSION" suffix on NAME. */
static int same_mangled(const char *name, const char *symbol)
{
	size_t n = strlen(symbol);
	return strncmp(name, symbol, n) == 0 && (name[n] == '\0' || name[n] == '@');
}

/* Keep only sized matches when any exists, then one entry per distinct offset. */
static void dedupe_matches(struct func_sym *m, size_t *n)
{
	int any_sized = 0;
	for (size_t i = 0; i < *n; i++)
		any_sized |= m[i].size > 0;
	size_t k = 0;
	for (size_t i = 0; i < *n; i++) {
		if (any_sized && !m[i].size)
			continue;
		size_t j;
		for (j = 0; j < k && m[j].off != m[i].off; j++)
			;
		if (j == k)
			m[k++] = m[i];
	}
	*n = k;
}

/* Text shown for a symbol in messages: its demangled name without return type, else itself. */
static void display_name(const char *name, char *out, size_t outlen)
{
	char *d = bs_demangle(name);
	char base[8];
	if (d) {
		bs_sym_keys(d, out, outlen, base, sizeof(base));
		free(d);
	} else {
		snprintf(out, outlen, "%s", name);
	}
}

static void format_ambiguous(const char *path, const char *symbol, const struct func_sym *m,
			     size_t n, char *err, size_t errlen)
{
	size_t used = (size_t)snprintf(
	    err, errlen, "symbol '%s' is ambiguous in %s (%zu functions):", symbol, path, n);
	for (size_t i = 0; i < n && used < errlen; i++) {
		char disp[512];
		display_name(m[i].name, disp, sizeof(disp));
		used += (size_t)snprintf(err + used, errlen - used, "%s %s [%s]", i ? "," : "",
					 disp, m[i].name);
	}
	if (used < errlen)
		snprintf(err + used, errlen - used, "; give the parameters or the mangled name");
}

int bs_elf_find_func(const char *path, const char *symbol, uint64_t *file_offset,
		     uint64_t *sym_size, char *name_out, size_t name_len, char *err, size_t errlen)
{
	struct bs_elf ef;
	struct func_list funcs = {0};
	struct func_sym *m = NULL;
	size_t nm = 0;
	char qfull[1024], qbase[1024], full[1024], base[1024];
	if (!symbol || !*symbol) {
		snprintf(err, errlen, "empty symbol name");
		return -EINVAL;
	}
	int ret = bs_elf_open(path, &ef, err, errlen);
	if (ret)
		return ret;
	ret = collect_funcs(&ef, &funcs);
	if (ret) {
		snprintf(err, errlen, "%s: out of memory reading symbols", path);
		goto out;
	}
	m = calloc(funcs.n + 1, sizeof(*m));
	if (!m) {
		ret = -ENOMEM;
		snprintf(err, errlen, "%s: out of memory reading symbols", path);
		goto out;
	}
	for (size_t i = 0; i < funcs.n; i++)
		if (same_mangled(funcs.v[i].name, symbol))
			m[nm++] = funcs.v[i];

	int with_params = strchr(symbol, '(') != NULL;
	bs_sym_keys(symbol, qfull, sizeof(qfull), qbase, sizeof(qbase));
	struct bs_suggest sug;
	bs_suggest_init(&sug, 5);
	size_t exact = nm; /* a mangled (or C) name needs no demangling pass */
	for (size_t i = 0; !exact && i < funcs.n; i++) {
		char *d = bs_demangle(funcs.v[i].name);
		const char *shown = d ? d : funcs.v[i].name;
		/* Compiler clones (".cold", ".isra") are never what a user names. */
		int clone =
		    strstr(shown, "[clone ") != NULL || (!d && strchr(funcs.v[i].name, '.'));
		bs_sym_keys(shown, full, sizeof(full), base, sizeof(base));
		if (!clone && bs_sym_same(with_params ? qfull : qbase, with_params ? full : base))
			m[nm++] = funcs.v[i];
		if (!clone)
			bs_suggest_add(&sug, full, strcasestr(base, qbase) != NULL,
				       bs_sym_distance(qbase, base));
		free(d);
	}
	if (nm == 0) {
		char list[2048];
		bs_suggest_format(&sug, list, sizeof(list));
		snprintf(err, errlen, "symbol '%s' not found in %s%s%s", symbol, path,
			 *list ? "; closest: " : " (it has no function symbols)", list);
		ret = -ENOENT;
	}
	bs_suggest_free(&sug);
	if (ret)
		goto out;
	dedupe_matches(m, &nm);
	if (nm > 1) {
		format_ambiguous(path, symbol, m, nm, err, errlen);
		ret = -EINVAL;
		goto out;
	}
	if (file_offset)
		*file_offset = m[0].off;
	if (sym_size)
		*sym_size = m[0].size;
	if (name_out && name_len) {
		size_t n = strcspn(m[0].name, "@");
		snprintf(name_out, name_len, "%.*s", (int)n, m[0].name);
	}
out:
	free(m);
	free(funcs.v);
	bs_elf_close(&ef);
	return ret;
}
