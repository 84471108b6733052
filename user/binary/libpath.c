/* SPDX-License-Identifier: MIT */
/* libpath.c - resolve commands like execvp and libraries like the dynamic loader. */
#include "binary/libpath.h"

#include "binary/elffile.h"
#include "binary/ldcache.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_OBJECTS 1024 /* bound on the closure, against garbage or cyclic input */

static const char *const default_dirs[] = {
    "/lib/x86_64-linux-gnu",
    "/usr/lib/x86_64-linux-gnu",
    "/lib64",
    "/usr/lib64",
    "/lib",
    "/usr/lib",
};

/* ---- execvp-like command lookup ------------------------------------------ */

static int is_exec_file(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EACCES;
	return access(path, X_OK) == 0 ? 0 : -EACCES;
}

int bs_which(const char *cmd, char *out, size_t outlen)
{
	if (!cmd || !*cmd)
		return -ENOENT;
	if (strchr(cmd, '/')) {
		if ((size_t)snprintf(out, outlen, "%s", cmd) >= outlen)
			return -ENAMETOOLONG;
		return is_exec_file(cmd);
	}
	const char *path = getenv("PATH");
	if (!path)
		path = "/bin:/usr/bin";
	int ret = -ENOENT;
	for (const char *p = path;; p++) {
		size_t n = strcspn(p, ":");
		char cand[PATH_MAX];
		int w = n ? snprintf(cand, sizeof(cand), "%.*s/%s", (int)n, p, cmd)
			  : snprintf(cand, sizeof(cand), "%s", cmd);
		if (w > 0 && (size_t)w < sizeof(cand)) {
			int r = is_exec_file(cand);
			if (r == 0) {
				if ((size_t)snprintf(out, outlen, "%s", cand) >= outlen)
					return -ENAMETOOLONG;
				return 0;
			}
			if (r == -EACCES)
				ret = -EACCES; /* like execvp: remembered, the search goes on */
		}
		p += n;
		if (!*p)
			break;
	}
	return ret;
}

/* ---- one loaded object --------------------------------------------------- */

struct dso {
	char *name;    /* the DT_NEEDED string that loaded it (the program: its path) */
	char *path;    /* canonical absolute path */
	char *soname;  /* DT_SONAME or NULL */
	char *rpath;   /* DT_RPATH or NULL */
	char *runpath; /* DT_RUNPATH or NULL */
	char **needed;
	size_t nneeded;
	int parent; /* index of the object that needed it, -1 for the program */
	int elfclass, machine;
};

static void dso_free(struct dso *d)
{
	free(d->name);
	free(d->path);
	free(d->soname);
	free(d->rpath);
	free(d->runpath);
	bs_free_strv(d->needed, d->nneeded);
	memset(d, 0, sizeof(*d));
}

static int dup_into(char **dst, const char *s)
{
	if (!s)
		return 0;
	free(*dst);
	*dst = strdup(s);
	return *dst ? 0 : -ENOMEM;
}

/* Read PATH's ELF identity and dynamic section into D (path canonicalised). */
static int dso_read(const char *path, struct dso *d)
{
	struct bs_elf ef;
	char err[256], real[PATH_MAX];
	memset(d, 0, sizeof(*d));
	d->parent = -1;
	if (!realpath(path, real))
		return -errno;
	int ret = bs_elf_open(real, &ef, err, sizeof(err));
	if (ret)
		return ret;
	d->elfclass = gelf_getclass(ef.elf);
	d->machine = ef.ehdr.e_machine;
	ret = dup_into(&d->path, real);
	for (Elf_Scn *scn = elf_nextscn(ef.elf, NULL); scn && !ret;
	     scn = elf_nextscn(ef.elf, scn)) {
		GElf_Shdr sh;
		Elf_Data *data;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		size_t cnt = data->d_size / gelf_fsize(ef.elf, ELF_T_DYN, 1, EV_CURRENT);
		for (size_t i = 0; i < cnt && !ret; i++) {
			GElf_Dyn dyn;
			if (!gelf_getdyn(data, (int)i, &dyn) || dyn.d_tag == DT_NULL)
				break;
			if (dyn.d_tag != DT_NEEDED && dyn.d_tag != DT_SONAME &&
			    dyn.d_tag != DT_RPATH && dyn.d_tag != DT_RUNPATH)
				continue;
			const char *s = elf_strptr(ef.elf, sh.sh_link, dyn.d_un.d_val);
			if (!s)
				continue;
			if (dyn.d_tag == DT_SONAME)
				ret = dup_into(&d->soname, s);
			else if (dyn.d_tag == DT_RPATH)
				ret = dup_into(&d->rpath, s);
			else if (dyn.d_tag == DT_RUNPATH)
				ret = dup_into(&d->runpath, s);
			else {
				char **v = realloc(d->needed, (d->nneeded + 1) * sizeof(*v));
				if (!v || !(v[d->nneeded] = strdup(s))) {
					if (v)
						d->needed = v;
					ret = -ENOMEM;
				} else {
					d->needed = v;
					d->nneeded++;
				}
			}
		}
		break;
	}
	bs_elf_close(&ef);
	if (ret)
		dso_free(d);
	return ret;
}

/* ---- the breadth-first closure ------------------------------------------ */

struct closure {
	struct dso *v;
	size_t n, cap;
	char **missing; /* needed names the loader would not find */
	size_t nmissing;
	struct bs_ldcache cache;
	int cache_state; /* 0 not loaded, 1 loaded, -1 unavailable */
};

static void closure_free(struct closure *c)
{
	for (size_t i = 0; i < c->n; i++)
		dso_free(&c->v[i]);
	free(c->v);
	bs_free_strv(c->missing, c->nmissing);
	if (c->cache_state == 1)
		bs_ldcache_free(&c->cache);
	memset(c, 0, sizeof(*c));
}

/* Expand $ORIGIN, $LIB, $PLATFORM (also ${...}) of S into out; ORIGIN is a directory. */
static void expand_dst(const char *s, size_t n, const char *origin, char *out, size_t outlen)
{
	static const char *const keys[] = {"ORIGIN", "LIB", "PLATFORM"};
	const char *platform = (const char *)getauxval(AT_PLATFORM);
	struct stat st;
	const char *lib =
	    stat("/lib/x86_64-linux-gnu", &st) == 0 ? "lib/x86_64-linux-gnu" : "lib64";
	const char *vals[] = {origin, lib, platform ? platform : "x86_64"};
	size_t o = 0;
	for (size_t i = 0; i < n && o + 1 < outlen;) {
		int hit = 0;
		if (s[i] == '$') {
			for (size_t k = 0; k < 3 && !hit; k++) {
				size_t kl = strlen(keys[k]);
				int brace = i + 1 < n && s[i + 1] == '{';
				const char *at = s + i + 1 + brace;
				size_t left = n - (i + 1 + (size_t)brace);
				if (left < kl || strncmp(at, keys[k], kl) != 0)
					continue;
				if (brace && (left == kl || at[kl] != '}'))
					continue;
				if (!brace && left > kl &&
				    (at[kl] == '_' || isalnum((unsigned char)at[kl])))
					continue;
				o += (size_t)snprintf(out + o, outlen - o, "%s", vals[k]);
				i += 1 + (size_t)brace + kl + (size_t)brace;
				hit = 1;
			}
		}
		if (!hit)
			out[o++] = s[i++];
		if (o >= outlen)
			o = outlen - 1;
	}
	out[o < outlen ? o : outlen - 1] = '\0';
}

static int compatible(const struct closure *c, const struct dso *d)
{
	return d->elfclass == c->v[0].elfclass && d->machine == c->v[0].machine;
}

/* Index of a loaded object answering to NAME (by needed name or soname) or PATH, or -1. */
static long find_loaded(const struct closure *c, const char *name, const char *path)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct dso *d = &c->v[i];
		if ((name && ((d->name && strcmp(d->name, name) == 0) ||
			      (d->soname && strcmp(d->soname, name) == 0))) ||
		    (path && strcmp(d->path, path) == 0))
			return (long)i;
	}
	return -1;
}

/* Try FILE as the library: 0 and *out filled when it is a compatible ELF object. */
static int try_file(const struct closure *c, const char *file, struct dso *out)
{
	if (access(file, F_OK) != 0 || dso_read(file, out) != 0)
		return -ENOENT;
	if (!compatible(c, out)) {
		dso_free(out);
		return -ENOENT;
	}
	return 0;
}

/* Search the ':'/';'-separated LIST (ORIGIN for $ORIGIN) for NAME. */
static int try_list(const struct closure *c, const char *list, const char *origin, const char *name,
		    struct dso *out)
{
	for (const char *p = list; p && *p;) {
		size_t n = strcspn(p, ":;");
		char dir[PATH_MAX], file[PATH_MAX];
		expand_dst(p, n, origin, dir, sizeof(dir));
		int w = snprintf(file, sizeof(file), "%s/%s", *dir ? dir : ".", name);
		if (w > 0 && (size_t)w < sizeof(file) && try_file(c, file, out) == 0)
			return 0;
		p += n;
		if (*p)
			p++;
	}
	return -ENOENT;
}

static void dir_of(const char *path, char *out, size_t outlen)
{
	const char *slash = strrchr(path, '/');
	if (slash == path)
		snprintf(out, outlen, "/");
	else
		snprintf(out, outlen, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
}

/* Find the library NAME needed by object WHO, in ld.so's order. */
static int search_lib(struct closure *c, size_t who, const char *name, struct dso *out)
{
	char origin[PATH_MAX];
	if (strchr(name, '/'))
		return try_file(c, name, out);
	if (!c->v[who].runpath) {
		for (long l = (long)who; l >= 0; l = c->v[l].parent) {
			if (c->v[l].runpath || !c->v[l].rpath)
				continue;
			dir_of(c->v[l].path, origin, sizeof(origin));
			if (try_list(c, c->v[l].rpath, origin, name, out) == 0)
				return 0;
		}
	}
	dir_of(c->v[0].path, origin, sizeof(origin));
	if (try_list(c, getenv("LD_LIBRARY_PATH"), origin, name, out) == 0)
		return 0;
	if (c->v[who].runpath) {
		dir_of(c->v[who].path, origin, sizeof(origin));
		if (try_list(c, c->v[who].runpath, origin, name, out) == 0)
			return 0;
	}
	if (c->cache_state == 0)
		c->cache_state = bs_ldcache_load(&c->cache, NULL) == 0 ? 1 : -1;
	size_t pos = 0;
	long k;
	while (c->cache_state == 1 && (k = bs_ldcache_next(&c->cache, name, &pos)) >= 0)
		if (try_file(c, c->cache.v[k].path, out) == 0)
			return 0;
	for (size_t i = 0; i < sizeof(default_dirs) / sizeof(default_dirs[0]); i++)
		if (try_list(c, default_dirs[i], origin, name, out) == 0)
			return 0;
	return -ENOENT;
}

static int add_missing(struct closure *c, const char *name)
{
	for (size_t i = 0; i < c->nmissing; i++)
		if (strcmp(c->missing[i], name) == 0)
			return 0;
	char **v = realloc(c->missing, (c->nmissing + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	c->missing = v;
	if (!(v[c->nmissing] = strdup(name)))
		return -ENOMEM;
	c->nmissing++;
	return 0;
}

/* Load PROGRAM and, breadth-first, every object it needs. */
static int closure_build(struct closure *c, const char *program)
{
	memset(c, 0, sizeof(*c));
	c->v = calloc(16, sizeof(*c->v));
	if (!c->v)
		return -ENOMEM;
	c->cap = 16;
	int ret = dso_read(program, &c->v[0]);
	if (ret)
		return ret;
	c->n = 1;
	if ((ret = dup_into(&c->v[0].name, c->v[0].path)))
		return ret;
	for (size_t i = 0; i < c->n; i++) {
		for (size_t j = 0; j < c->v[i].nneeded; j++) {
			const char *name = c->v[i].needed[j];
			struct dso d;
			if (find_loaded(c, name, NULL) >= 0)
				continue;
			if (search_lib(c, i, name, &d) != 0) {
				if ((ret = add_missing(c, name)))
					return ret;
				continue;
			}
			if (find_loaded(c, NULL, d.path) >= 0 || c->n >= MAX_OBJECTS) {
				dso_free(&d);
				continue;
			}
			if (c->n == c->cap) {
				struct dso *v = realloc(c->v, 2 * c->cap * sizeof(*v));
				if (!v) {
					dso_free(&d);
					return -ENOMEM;
				}
				c->v = v;
				c->cap *= 2;
			}
			d.parent = (int)i;
			if ((ret = dup_into(&d.name, name))) {
				dso_free(&d);
				return ret;
			}
			c->v[c->n++] = d;
		}
	}
	return 0;
}

/* ---- public API ----------------------------------------------------------- */

/* If PATH is a "#!" script, write its interpreter's path into out and return 1. */
static int script_interpreter(const char *path, char *out, size_t outlen)
{
	char line[PATH_MAX];
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	int ok = fgets(line, sizeof(line), f) && strncmp(line, "#!", 2) == 0;
	fclose(f);
	if (!ok)
		return 0;
	char *save, *interp = strtok_r(line + 2, " \t\r\n", &save);
	if (!interp)
		return 0;
	const char *slash = strrchr(interp, '/');
	if (strcmp(slash ? slash + 1 : interp, "env") == 0) {
		char *arg;
		while ((arg = strtok_r(NULL, " \t\r\n", &save)) && arg[0] == '-')
			;
		return arg && bs_which(arg, out, outlen) == 0;
	}
	return (size_t)snprintf(out, outlen, "%s", interp) < outlen;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* Spelling rule: "benchmark" / "libbenchmark" / "libbenchmark.so" -> "libbenchmark.so" prefix. */
static int spelled_as(const char *bin, const char *name)
{
	char want[NAME_MAX + 16];
	if (strstr(bin, ".so"))
		snprintf(want, sizeof(want), "%s", bin);
	else if (strncmp(bin, "lib", 3) == 0)
		snprintf(want, sizeof(want), "%s.so", bin);
	else
		snprintf(want, sizeof(want), "lib%s.so", bin);
	size_t n = strlen(want);
	return name && strncmp(name, want, n) == 0 && (name[n] == '\0' || name[n] == '.');
}

static int exact_name(const char *bin, const struct dso *d)
{
	return strcmp(bin, d->name) == 0 || (d->soname && strcmp(bin, d->soname) == 0) ||
	       strcmp(bin, base_name(d->path)) == 0;
}

static int copy_out(const char *s, char *out, size_t outlen)
{
	return (size_t)snprintf(out, outlen, "%s", s) < outlen ? 0 : -ENAMETOOLONG;
}

static void explain_not_loaded(const struct closure *c, const char *exe, const char *bin, char *err,
			       size_t errlen)
{
	for (size_t i = 0; i < c->nmissing; i++)
		if (strcmp(bin, c->missing[i]) == 0 || spelled_as(bin, c->missing[i])) {
			snprintf(err, errlen,
				 "library '%s' is needed by %s (as %s) but the dynamic loader "
				 "would not find it "
				 "(check LD_LIBRARY_PATH and ldconfig)",
				 bin, exe, c->missing[i]);
			return;
		}
	if (c->n <= 1 && !c->nmissing) {
		snprintf(err, errlen,
			 "library '%s' is not loaded by %s: it loads no shared libraries", bin,
			 exe);
		return;
	}
	size_t used = (size_t)snprintf(
	    err, errlen, "library '%s' is not among the libraries %s loads (it loads:", bin, exe);
	for (size_t i = 1; i < c->n && used < errlen; i++)
		used += (size_t)snprintf(err + used, errlen - used, "%s %s", i > 1 ? "," : "",
					 c->v[i].name);
	for (size_t i = 0; i < c->nmissing && used < errlen; i++)
		used += (size_t)snprintf(err + used, errlen - used, "%s %s (not found)",
					 i || c->n > 1 ? "," : "", c->missing[i]);
	if (used < errlen)
		snprintf(err + used, errlen - used, ")");
}

int bs_resolve_binary(const char *exe, const char *bin, char *out, size_t outlen, char *err,
		      size_t errlen)
{
	char rexe[PATH_MAX], interp[PATH_MAX], rinterp[PATH_MAX];
	const char *program = rexe;
	if (errlen)
		err[0] = '\0';
	if (!bin || !*bin) {
		snprintf(err, errlen, "empty binary name");
		return -EINVAL;
	}
	if (strchr(bin, '/')) {
		if (!realpath(bin, rexe)) {
			int e = errno;
			snprintf(err, errlen, "cannot find '%s': %s", bin, strerror(e));
			return -e;
		}
		return copy_out(rexe, out, outlen);
	}
	if (!realpath(exe, rexe)) {
		int e = errno;
		snprintf(err, errlen, "cannot find program '%s': %s", exe, strerror(e));
		return -e;
	}
	if (strcmp(bin, base_name(exe)) == 0 || strcmp(bin, base_name(rexe)) == 0)
		return copy_out(rexe, out, outlen);
	if (script_interpreter(rexe, interp, sizeof(interp)) && realpath(interp, rinterp)) {
		program = rinterp;
		if (strcmp(bin, base_name(interp)) == 0 || strcmp(bin, base_name(rinterp)) == 0)
			return copy_out(rinterp, out, outlen);
	}
	struct closure c;
	int ret = closure_build(&c, program);
	if (ret) {
		if (ret == -ENOEXEC)
			snprintf(err, errlen, "%s is not an ELF program", program);
		else
			snprintf(err, errlen, "cannot read %s: %s", program, strerror(-ret));
		closure_free(&c);
		return ret;
	}
	ret = -ENOENT;
	for (int pass = 0; pass < 2 && ret == -ENOENT; pass++)
		for (size_t i = 1; i < c.n && ret == -ENOENT; i++) {
			const struct dso *d = &c.v[i];
			int hit = pass == 0
				      ? exact_name(bin, d)
				      : spelled_as(bin, d->name) || spelled_as(bin, d->soname) ||
					    spelled_as(bin, base_name(d->path));
			if (hit)
				ret = copy_out(d->path, out, outlen);
		}
	if (ret == -ENOENT)
		explain_not_loaded(&c, exe, bin, err, errlen);
	else if (ret)
		snprintf(err, errlen, "path of '%s' too long", bin);
	closure_free(&c);
	return ret;
}

int bs_needed_libs(const char *exe, char ***paths_out, size_t *n_out)
{
	struct closure c;
	*paths_out = NULL;
	*n_out = 0;
	int ret = closure_build(&c, exe);
	if (!ret && c.n > 1) {
		char **v = calloc(c.n - 1, sizeof(*v));
		if (!v)
			ret = -ENOMEM;
		for (size_t i = 1; v && i < c.n; i++) {
			v[i - 1] = c.v[i].path; /* ownership moves to the caller */
			c.v[i].path = NULL;
		}
		if (v) {
			*paths_out = v;
			*n_out = c.n - 1;
		}
	}
	closure_free(&c);
	return ret;
}

void bs_free_strv(char **v, size_t n)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
