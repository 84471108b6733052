/* SPDX-License-Identifier: MIT */
/* elfnote.c - ELF notes: SystemTap USDT probes (.note.stapsdt) and the GNU build-id. */
#include "binary/elfsym.h"

#include "binary/elffile.h"
#include "binary/symmatch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STAPSDT_NOTE_TYPE 3

static uint64_t read_addr(const unsigned char *p, int is64)
{
	if (is64) {
		uint64_t v;
		memcpy(&v, p, 8);
		return v;
	}
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

/* Copy the NUL-terminated string at *p (inside [*p, end)) to out; advance *p. -1 if unterminated.
 */
static int take_string(const char **p, const char *end, char *out, size_t outlen)
{
	const char *z = memchr(*p, '\0', (size_t)(end - *p));
	if (!z)
		return -1;
	snprintf(out, outlen, "%.*s", (int)(z - *p), *p);
	*p = z + 1;
	return 0;
}

/* Decode one stapsdt note descriptor; 0 on success. base_shift corrects prelinked addresses. */
static int decode_stapsdt(struct bs_elf *ef, const char *desc, size_t len, int have_base,
			  uint64_t base_addr, struct bs_usdt_note *out)
{
	int is64 = gelf_getclass(ef->elf) == ELFCLASS64;
	size_t asz = is64 ? 8 : 4;
	if (len < 3 * asz)
		return -1;
	uint64_t pc = read_addr((const unsigned char *)desc, is64);
	uint64_t base = read_addr((const unsigned char *)desc + asz, is64);
	memset(out, 0, sizeof(*out));
	out->sema_addr = read_addr((const unsigned char *)desc + 2 * asz, is64);
	const char *p = desc + 3 * asz, *end = desc + len;
	if (take_string(&p, end, out->provider, sizeof(out->provider)) ||
	    take_string(&p, end, out->name, sizeof(out->name)) ||
	    take_string(&p, end, out->args, sizeof(out->args)))
		return -1;
	if (have_base && base)
		pc += base_addr - base;
	if (ef->ehdr.e_type == ET_REL)
		return -1; /* relocatable objects have no addresses yet */
	return bs_elf_vaddr_to_offset(ef, pc, 1, &out->pc_offset) ? -1 : 0;
}

int bs_elf_list_usdt(const char *path, struct bs_usdt_note **notes, size_t *n)
{
	struct bs_elf ef;
	char err[256];
	GElf_Shdr sh, bsh;
	*notes = NULL;
	*n = 0;
	int ret = bs_elf_open(path, &ef, err, sizeof(err));
	if (ret)
		return ret;
	Elf_Scn *scn = bs_elf_find_section(&ef, ".note.stapsdt", &sh);
	Elf_Data *data = scn && sh.sh_type == SHT_NOTE ? elf_getdata(scn, NULL) : NULL;
	int have_base = bs_elf_find_section(&ef, ".stapsdt.base", &bsh) != NULL;
	size_t cap = 0, off = 0, next, name_off, desc_off;
	GElf_Nhdr nh;
	while (data && off < data->d_size &&
	       (next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		const char *base = data->d_buf;
		off = next;
		if (nh.n_type != STAPSDT_NOTE_TYPE || nh.n_namesz != sizeof("stapsdt") ||
		    memcmp(base + name_off, "stapsdt", sizeof("stapsdt")) != 0)
			continue;
		if (*n == cap) {
			size_t ncap = cap ? cap * 2 : 32;
			struct bs_usdt_note *v = realloc(*notes, ncap * sizeof(*v));
			if (!v) {
				ret = -ENOMEM;
				break;
			}
			*notes = v;
			cap = ncap;
		}
		if (decode_stapsdt(&ef, base + desc_off, nh.n_descsz, have_base, bsh.sh_addr,
				   &(*notes)[*n]) == 0)
			(*n)++;
	}
	if (ret || !*n) {
		free(*notes);
		*notes = NULL;
		*n = 0;
	}
	bs_elf_close(&ef);
	return ret;
}

int bs_elf_check_usdt(const char *path, const char *provider, const char *name, char *err,
		      size_t errlen)
{
	struct bs_usdt_note *v;
	size_t n;
	int ret = bs_elf_list_usdt(path, &v, &n);
	if (ret) {
		if (ret == -ENOEXEC)
			snprintf(err, errlen, "%s is not an ELF file", path);
		else
			snprintf(err, errlen, "cannot read USDT probes of %s: %s", path,
				 strerror(-ret));
		return ret;
	}
	if (!n) {
		snprintf(err, errlen, "%s has no USDT probes", path);
		return -ENOENT;
	}
	char want[160], have[160];
	snprintf(want, sizeof(want), "%s:%s", provider, name);
	struct bs_suggest sug;
	bs_suggest_init(&sug, 5);
	ret = -ENOENT;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(v[i].provider, provider) == 0 && strcmp(v[i].name, name) == 0) {
			ret = 0;
			break;
		}
		snprintf(have, sizeof(have), "%s:%s", v[i].provider, v[i].name);
		bs_suggest_add(&sug, have, *name && strcasestr(v[i].name, name) != NULL,
			       bs_edit_distance(want, have));
	}
	if (ret) {
		char list[1024];
		bs_suggest_format(&sug, list, sizeof(list));
		snprintf(err, errlen, "USDT probe '%s' not found in %s; closest: %s", want, path,
			 list);
	}
	bs_suggest_free(&sug);
	free(v);
	return ret;
}

/* Search DATA (notes) for NT_GNU_BUILD_ID; 1 found (hex written), 0 not, <0 error. */
static int find_build_id(Elf_Data *data, char *hex, size_t hexlen)
{
	size_t off = 0, next, name_off, desc_off;
	GElf_Nhdr nh;
	while (off < data->d_size &&
	       (next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		const unsigned char *base = data->d_buf;
		off = next;
		if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != sizeof("GNU") ||
		    memcmp(base + name_off, "GNU", sizeof("GNU")) != 0)
			continue;
		if (hexlen < 2 * (size_t)nh.n_descsz + 1)
			return -ENOSPC;
		for (size_t i = 0; i < nh.n_descsz; i++)
			snprintf(hex + 2 * i, 3, "%02x", base[desc_off + i]);
		hex[2 * nh.n_descsz] = '\0';
		return 1;
	}
	return 0;
}

int bs_elf_build_id(const char *path, char *hex, size_t hexlen)
{
	struct bs_elf ef;
	char err[256];
	int found = 0;
	if (hexlen)
		hex[0] = '\0';
	int ret = bs_elf_open(path, &ef, err, sizeof(err));
	if (ret)
		return ret;
	/* Section headers first; program headers (PT_NOTE) when sections are stripped. */
	for (Elf_Scn *scn = elf_nextscn(ef.elf, NULL); scn && !found;
	     scn = elf_nextscn(ef.elf, scn)) {
		GElf_Shdr sh;
		Elf_Data *d;
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_NOTE &&
		    (d = elf_getdata(scn, NULL)))
			found = find_build_id(d, hex, hexlen);
	}
	size_t nph = 0;
	if (!found && !elf_getphdrnum(ef.elf, &nph)) {
		for (size_t i = 0; i < nph && !found; i++) {
			GElf_Phdr ph;
			Elf_Data *d;
			if (gelf_getphdr(ef.elf, (int)i, &ph) && ph.p_type == PT_NOTE &&
			    (d = elf_getdata_rawchunk(ef.elf, (int64_t)ph.p_offset, ph.p_filesz,
						      ph.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR)))
				found = find_build_id(d, hex, hexlen);
		}
	}
	bs_elf_close(&ef);
	return found < 0 ? found : 0;
}
