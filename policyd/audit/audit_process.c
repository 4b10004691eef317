// SPDX-License-Identifier: GPL-2.0-or-later
/* The process behind a record, from /proc, once per batch; see audit_process.h. */
#include "audit_process.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* A small file of /proc/TGID, NUL-terminated; its length or -1. */
static ssize_t proc_file(uint32_t tgid, const char *name, char *buf, size_t size)
{
	char path[48];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%u/%s", tgid, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

static void read_exe(struct audit_process *p)
{
	char link[32];
	ssize_t n;

	struct stat st;

	snprintf(link, sizeof(link), "/proc/%u/exe", p->tgid);
	n = readlink(link, p->exe, sizeof(p->exe));
	p->exe_len = n > 0 ? (size_t)n : 0;
	/* The file the link leads to, deleted or not; the link could have
	 * changed between the two calls, so the path counts only when the
	 * file matches what the firewall recorded. */
	p->exe_stat = p->exe_len && stat(link, &st) == 0;
	if (p->exe_stat) {
		p->exe_ino = st.st_ino;
		p->exe_major = major(st.st_dev);
		p->exe_minor = minor(st.st_dev);
	}
}

/* The systemd unit of the cgroup2 path, as cgroup_unit_of_path() names
 * it (a user's own cgroup named like a system service is not that
 * service). */
static void read_unit(struct audit_process *p)
{
	char cgroup[1024], *line, *save = NULL;

	p->unit_len = 0;
	if (proc_file(p->tgid, "cgroup", cgroup, sizeof(cgroup)) <= 0)
		return;
	for (line = strtok_r(cgroup, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "0::", 3))
			continue;
		p->unit_len = cgroup_unit_of_path(line + 3, p->unit, sizeof(p->unit));
	}
}

static void read_identity(struct audit_process *p)
{
	char status[2048], comm[64];
	const char *u, *g;
	ssize_t n;

	p->identity_read = true;
	if (proc_file(p->tgid, "status", status, sizeof(status)) > 0 &&
	    (u = strstr(status, "\nUid:\t")) && (g = strstr(status, "\nGid:\t")) &&
	    sscanf(u + 6, "%u", &p->uid) == 1 && sscanf(g + 6, "%u", &p->gid) == 1)
		p->have_ids = true;
	n = proc_file(p->tgid, "comm", comm, sizeof(comm));
	if (n > 0) {
		if (comm[n - 1] == '\n')
			n--;
		p->comm_len = (size_t)n < sizeof(p->comm) ? (size_t)n : sizeof(p->comm);
		memcpy(p->comm, comm, p->comm_len);
		p->have_comm = true;
	}
}

const struct audit_process *audit_process_get(struct audit_processes *p, uint32_t tgid,
					      bool identity)
{
	struct audit_process *proc = NULL;

	for (size_t i = 0; i < p->n; i++)
		if (p->kept[i].tgid == tgid) {
			proc = &p->kept[i];
			break;
		}
	if (!proc) {
		if (p->n < AUDIT_PROCESSES_KEPT) {
			proc = &p->kept[p->n++];
		} else {
			proc = &p->kept[p->next];
			p->next = (p->next + 1) % AUDIT_PROCESSES_KEPT;
		}
		proc->tgid = tgid;
		proc->identity_read = proc->have_ids = proc->have_comm = false;
		read_exe(proc);
		read_unit(proc);
	}
	if (identity && !proc->identity_read)
		read_identity(proc);
	return proc;
}

void audit_processes_forget(struct audit_processes *p)
{
	p->n = 0;
	p->next = 0;
}
