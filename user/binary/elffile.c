/* SPDX-License-Identifier: MIT */
/* elffile.c - open ELF files safely and map addresses to file offsets. */
#include "binary/elffile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int bs_elf_open(const char *path, struct bs_elf *ef, char *err, size_t errlen)
{
	memset(ef, 0, sizeof(*ef));
	ef->fd = -1;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(err, errlen, "libelf initialisation failed: %s", elf_errmsg(-1));
		return -EINVAL;
	}
	ef->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (ef->fd < 0) {
		int e = errno;
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(e));
		return -e;
	}
	/* ELF_C_READ (not MMAP): a file truncated under us cannot SIGBUS. */
	ef->elf = elf_begin(ef->fd, ELF_C_READ, NULL);
	if (!ef->elf || elf_kind(ef->elf) != ELF_K_ELF || !gelf_getehdr(ef->elf, &ef->ehdr)) {
		int e = elf_errno();
		snprintf(err, errlen, "%s is not an ELF file%s%s", path, e ? ": " : "",
			 e ? elf_errmsg(e) : "");
		bs_elf_close(ef);
		return -ENOEXEC;
	}
	/* The section header string table must be readable for name lookups. */
	size_t shnum, shstrndx;
	if (elf_getshdrnum(ef->elf, &shnum) || elf_getshdrstrndx(ef->elf, &shstrndx)) {
		snprintf(err, errlen, "%s: corrupt ELF headers: %s", path, elf_errmsg(-1));
		bs_elf_close(ef);
		return -ENOEXEC;
	}
	return 0;
}

void bs_elf_close(struct bs_elf *ef)
{
	if (ef->elf)
		elf_end(ef->elf);
	if (ef->fd >= 0)
		close(ef->fd);
	ef->elf = NULL;
	ef->fd = -1;
}

int bs_elf_vaddr_to_offset(struct bs_elf *ef, uint64_t vaddr, int exec_only, uint64_t *off)
{
	size_t n;
	if (elf_getphdrnum(ef->elf, &n))
		return -ENOENT;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(ef->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (exec_only && !(ph.p_flags & PF_X))
			continue;
		if (vaddr >= ph.p_vaddr && vaddr - ph.p_vaddr < ph.p_memsz) {
			*off = vaddr - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -ENOENT;
}

Elf_Scn *bs_elf_find_section(struct bs_elf *ef, const char *name, GElf_Shdr *shdr)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(ef->elf, &shstrndx))
		return NULL;
	for (Elf_Scn *scn = elf_nextscn(ef->elf, NULL); scn; scn = elf_nextscn(ef->elf, scn)) {
		if (!gelf_getshdr(scn, shdr))
			continue;
		const char *s = elf_strptr(ef->elf, shstrndx, shdr->sh_name);
		if (s && strcmp(s, name) == 0)
			return scn;
	}
	return NULL;
}

int bs_elf_sym_offset(struct bs_elf *ef, const GElf_Sym *sym, uint64_t *off)
{
	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE)
		return -1;
	GElf_Shdr sh;
	Elf_Scn *scn = elf_getscn(ef->elf, sym->st_shndx);
	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
		return -1;
	if (ef->ehdr.e_type == ET_REL) {
		*off = sh.sh_offset + sym->st_value;
		return 0;
	}
	if (sym->st_value < sh.sh_addr || sym->st_value - sh.sh_addr >= sh.sh_size)
		return -1;
	*off = sym->st_value - sh.sh_addr + sh.sh_offset;
	return 0;
}
