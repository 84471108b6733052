// SPDX-License-Identifier: MIT
/* run_place.c - placement of the duet's sides (--cpus) and the SMT topology. */
#include "duet/run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/types.h>
#include <unistd.h>

#include "util/cli.h"

int bs_duet_cpus_parse(const char *spec, struct bs_duet_cpus *c, char *err, size_t errlen)
{
	char *copy = strdup(spec ? spec : ""), *save = NULL, *tok;
	bool seen[2] = {false, false};
	cpu_set_t allowed;
	int side = -1, i, cpu;

	memset(c, 0, sizeof(*c));
	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const char *list = tok;

		if ((tok[0] == 'A' || tok[0] == 'B' || tok[0] == 'a' || tok[0] == 'b') &&
		    tok[1] == '=') {
			side = tok[0] == 'A' || tok[0] == 'a' ? 0 : 1;
			if (seen[side]) {
				snprintf(err, errlen, "--cpus names side %c twice", "AB"[side]);
				goto bad;
			}
			seen[side] = true;
			list = tok + 2;
		}
		if (side < 0 || bs_cpu_range_add(list, &c->cpus[side])) {
			snprintf(
			    err, errlen,
			    "--cpus takes A=LIST,B=LIST (e.g. A=0,B=1 or A=0-1,B=2-3), not '%s'",
			    spec);
			goto bad;
		}
		snprintf(c->text[side] + strlen(c->text[side]),
			 sizeof(c->text[0]) - strlen(c->text[side]), "%s%s",
			 c->text[side][0] ? "," : "", list);
	}
	if (!seen[0] || !seen[1]) {
		snprintf(err, errlen, "--cpus needs both sides: A=LIST,B=LIST, not '%s'", spec);
		goto bad;
	}
	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		snprintf(err, errlen, "sched_getaffinity: %s", strerror(errno));
		goto bad;
	}
	for (i = 0; i < 2; i++)
		for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
			if (CPU_ISSET(cpu, &c->cpus[i]) && !CPU_ISSET(cpu, &allowed)) {
				snprintf(
				    err, errlen,
				    "--cpus: CPU %d is not available here (online CPUs: 0-%ld)",
				    cpu, sysconf(_SC_NPROCESSORS_ONLN) - 1);
				goto bad;
			}
	free(copy);
	c->set = true;
	return 0;
bad:
	free(copy);
	memset(c, 0, sizeof(*c));
	return -EINVAL;
}

json_object *bs_duet_smt_siblings(void)
{
	json_object *groups = json_object_new_array();
	long n = sysconf(_SC_NPROCESSORS_CONF), cpu;
	cpu_set_t done;

	CPU_ZERO(&done);
	for (cpu = 0; cpu < n && cpu < CPU_SETSIZE; cpu++) {
		char path[128], line[256];
		cpu_set_t g;
		FILE *f;
		int k, count;

		if (CPU_ISSET((int)cpu, &done))
			continue;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%ld/topology/thread_siblings_list", cpu);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(line, sizeof(line), f)) {
			fclose(f);
			continue;
		}
		fclose(f);
		line[strcspn(line, "\n")] = 0;
		CPU_ZERO(&g);
		{
			char *save = NULL, *tok;

			for (tok = strtok_r(line, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save))
				bs_cpu_range_add(tok, &g);
		}
		count = CPU_COUNT(&g);
		CPU_OR(&done, &done, &g);
		if (count > 1) {
			json_object *arr = json_object_new_array();

			for (k = 0; k < CPU_SETSIZE; k++)
				if (CPU_ISSET(k, &g))
					json_object_array_add(arr, json_object_new_int(k));
			json_object_array_add(groups, arr);
		}
	}
	return groups;
}

int bs_duet_cpus_default(bool same, struct bs_duet_cpus *c, char *err, size_t errlen)
{
	cpu_set_t allowed;
	int first = -1, second = -1, last = -1;

	memset(c, 0, sizeof(*c));
	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		snprintf(err, errlen, "sched_getaffinity: %s", strerror(errno));
		return -errno;
	}
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &allowed))
			continue;
		if (first < 0)
			first = cpu;
		else if (second < 0)
			second = cpu;
		last = cpu;
	}
	if (!same && second < 0) {
		snprintf(err, errlen,
			 "a crossover needs two CPUs and benchscope may use only CPU %d here",
			 first);
		return -EINVAL;
	}
	if (same)
		first = second = last;
	bs_duet_cpus_pair(first, second, c);
	return 0;
}

void bs_duet_cpus_pair(int cpu_a, int cpu_b, struct bs_duet_cpus *c)
{
	memset(c, 0, sizeof(*c));
	CPU_SET(cpu_a, &c->cpus[0]);
	CPU_SET(cpu_b, &c->cpus[1]);
	snprintf(c->text[0], sizeof(c->text[0]), "%d", cpu_a);
	snprintf(c->text[1], sizeof(c->text[1]), "%d", cpu_b);
	c->set = true;
}

int bs_duet_place_pids(const pid_t *pids, size_t n, const cpu_set_t *set)
{
	int moved = 0;

	for (size_t i = 0; i < n; i++) {
		char path[64];
		struct dirent *de;
		DIR *d;

		snprintf(path, sizeof(path), "/proc/%d/task", (int)pids[i]);
		d = opendir(path);
		if (!d)
			continue; /* exited */
		while ((de = readdir(d))) {
			pid_t tid = (pid_t)atoi(de->d_name);

			if (tid <= 0)
				continue;
			if (!sched_setaffinity(tid, sizeof(*set), set))
				moved++;
			else if (errno != ESRCH) {
				int e = -errno;

				closedir(d);
				return e;
			}
		}
		closedir(d);
	}
	return moved;
}
