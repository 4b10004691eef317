// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * End-to-end: rules that name who sends a request, decided in the kernel
 * from the calling task. Each sender is a real process: another user, a
 * member of a supplementary group, the allowed executable and a copy of it.
 * Every case runs on uhid and on USB (usbhid on dummy_hcd), but those about
 * the file system an executable is on, which run on uhid alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/btrfs.h>
#include <linux/hidraw.h>
#include <linux/loop.h>

#include "harness.h"
#include "json_path.h"
#include "man_example.h"
#include "policyd_case.h"
#include "uhid_dev.h"
#include "uring.h"
#include "user_db.h"

#define USER_UID 1000
#define TOOLS_GID 4242		/* "gamepad-tools", made for the test (user_db.h) */

static enum test_dev_backend backend;

static struct uhid_dev_config test_device(void)
{
	return (struct uhid_dev_config){
		.backend = backend,
		.name = "sender test device",
		.vendor = 0x1234,
		.product = 0x5704,
		.rdesc = uhid_test_rdesc,
		.rdesc_size = uhid_test_rdesc_size,
	};
}

/* build/tests/hidraw-set-feature, a program that sends one feature report,
 * copied once to a directory every user can reach: the build may be in a
 * checkout that only root can enter (a clone under /root). */
static const char *tool_path(void)
{
	static char path[512];
	const char *build = getenv("HID_POLICY_BUILDDIR") ?: "build";
	char built[512], dir[] = "/tmp/hp-sender-tool.XXXXXX", buf[65536];
	int in, out;
	ssize_t n;

	if (path[0])
		return path;
	if (build[0] == '/') {
		snprintf(built, sizeof(built), "%s/tests/hidraw-set-feature", build);
	} else {
		char cwd[256];

		CHECK(getcwd(cwd, sizeof(cwd)), "getcwd: %s", strerror(errno));
		snprintf(built, sizeof(built), "%s/%s/tests/hidraw-set-feature", cwd, build);
	}
	CHECK(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
	CHECK_OK(chmod(dir, 0755));
	snprintf(path, sizeof(path), "%s/hidraw-set-feature", dir);
	in = open(built, O_RDONLY | O_CLOEXEC);
	CHECK(in >= 0, "%s: %s", built, strerror(errno));
	out = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	CHECK(out >= 0, "%s: %s", path, strerror(errno));
	while ((n = read(in, buf, sizeof(buf))) > 0)
		CHECK(write(out, buf, (size_t)n) == n, "%s: %s", path, strerror(errno));
	CHECK(n == 0, "%s: %s", built, strerror(errno));
	close(in);
	CHECK_OK(close(out));
	return path;
}

struct sender {
	const char *exe;	/* the program that sends */
	uid_t uid;
	gid_t gid;
	const gid_t *groups;	/* supplementary groups */
	size_t n_groups;
};

/* Run S's program on NODE for REPORT_ID; the errno the kernel answered
 * (0: sent). */
static int send_feature_as(const struct sender *s, const char *node, unsigned report_id)
{
	char id[8];
	int status;
	pid_t child;

	snprintf(id, sizeof(id), "%u", report_id);
	child = fork();
	CHECK_OK(child);
	if (child == 0) {
		if (setgroups(s->n_groups, s->groups) || setresgid(s->gid, s->gid, s->gid) ||
		    setresuid(s->uid, s->uid, s->uid))
			_exit(101);
		execl(s->exe, s->exe, node, id, (char *)NULL);
		_exit(102);
	}
	CHECK_EQ(waitpid(child, &status, 0), child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) < 100, "%s as uid %d: status %#x", s->exe,
	      (int)s->uid, status);
	return WEXITSTATUS(status);
}

/* A process that has become S and waits (until *RELEASE is closed), for
 * hid-policyctl to read it as it reads a sender (--pid). */
static pid_t resting_sender(const struct sender *s, int *release)
{
	int to_child[2], from_child[2];
	char c;
	pid_t child;

	CHECK_OK(pipe(to_child));
	CHECK_OK(pipe(from_child));
	child = fork();
	CHECK_OK(child);
	if (child == 0) {
		close(to_child[1]);
		close(from_child[0]);
		if (setgroups(s->n_groups, s->groups) || setresgid(s->gid, s->gid, s->gid) ||
		    setresuid(s->uid, s->uid, s->uid))
			_exit(2);
		if (write(from_child[1], "r", 1) != 1)
			_exit(3);
		_exit(read(to_child[0], &c, 1) == 0 ? 0 : 4);
	}
	close(to_child[0]);
	close(from_child[1]);
	CHECK_EQ(read(from_child[0], &c, 1), 1);
	close(from_child[0]);
	*release = to_child[1];
	return child;
}

static void end_resting_sender(pid_t child, int release)
{
	int status;

	close(release);
	CHECK_EQ(waitpid(child, &status, 0), child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %#x", status);
}

/* hid-policyctl explain of a feature SET_REPORT with report ID ID, sent by
 * process PID (0: no sender given): the rule that decides (NULL: a
 * default) and whether that depends on the sender. */
static void check_explained(struct policyd_run *run, const char *sysname, const char *id,
			    pid_t pid, const char *rule, bool depends)
{
	char pid_arg[16];
	json_t *j;

	snprintf(pid_arg, sizeof(pid_arg), "%d", (int)pid);
	j = pid > 0 ? POLICYCTL_JSON(run, (uid_t)-1, "explain", sysname, "set_report", "--report",
				     "feature", "--id", id, "--pid", pid_arg) :
		      POLICYCTL_JSON(run, (uid_t)-1, "explain", sysname, "set_report", "--report",
				     "feature", "--id", id);
	CHECK(!strcmp(json_path_str_or_empty(j, "decision.rule"), rule ?: ""),
	      "pid %d: decided by \"%s\", not \"%s\":\n%s", (int)pid,
	      json_path_str_or_empty(j, "decision.rule"), rule ?: "", json_path_str(j, "text"));
	CHECK(json_is_true(json_path(j, "decision.depends_on_sender")) == depends,
	      "pid %d: depends_on_sender is not %d:\n%s", (int)pid, depends, json_path_str(j, "text"));
	json_decref(j);
}

/* (c): only group gamepad-tools may send feature reports to a Logitech
 * receiver: hid-policy.d(5)'s example, as printed, with the group made
 * for the test. Members by supplementary group and by gid pass; another
 * user, and root, are refused. hid-policyctl explain names the rule that
 * decides for each of them (--pid), and without a sender says it depends. */
static void test_only_a_group_member_may_send_feature_reports(void)
{
	const gid_t tools[] = { 100, TOOLS_GID };
	const struct sender member = { tool_path(), USER_UID, USER_UID, tools, 2 };
	const struct sender outsider = { tool_path(), USER_UID, USER_UID, tools, 1 };
	const struct sender primary = { tool_path(), USER_UID, TOOLS_GID, NULL, 0 };
	const struct sender root = { tool_path(), 0, 0, NULL, 0 };
	const char *refused_user[] = { "rule.name=receiver-no-features-from-programs",
				       "process.uid=1000", "enforced=true", NULL };
	const char *refused_root[] = { "rule.name=receiver-no-features-from-programs",
				       "process.uid=0", "enforced=true", NULL };
	struct uhid_dev_config cfg = test_device();
	char *policy = man_example("50-logitech-receiver-tools.json");
	struct policyd_case c;
	pid_t resting;
	int release;

	cfg.name = "Logitech USB Receiver";
	cfg.vendor = 0x046d;
	cfg.product = 0xc52b;
	user_db_add_group("gamepad-tools", TOOLS_GID);
	/* hid-generic binds it, not hid-logitech-dj: the test guest ignores
	 * the vendor drivers (scripts/vm.sh) */
	policyd_case_start(&c, &cfg, policy);
	free(policy);
	CHECK_OK(chmod(c.dev.hidraw, 0666));

	CHECK_EQ(send_feature_as(&member, c.dev.hidraw, 3), 0);
	CHECK_EQ(send_feature_as(&primary, c.dev.hidraw, 3), 0);
	CHECK_EQ(send_feature_as(&outsider, c.dev.hidraw, 3), EPERM);
	CHECK_EQ(send_feature_as(&root, c.dev.hidraw, 3), EPERM);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_SET_REPORT, 3, 2, 3000));
	usleep(200 * 1000);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 3), 2);
	CHECK_EQ(policyd_audit_count(&c.run, refused_user, 1, 3000), 1);
	CHECK_EQ(policyd_audit_count(&c.run, refused_root, 1, 3000), 1);

	resting = resting_sender(&member, &release);
	check_explained(&c.run, c.dev.sysname, "3", resting, "receiver-features-for-gamepad-tools", false);
	end_resting_sender(resting, release);
	resting = resting_sender(&primary, &release);
	check_explained(&c.run, c.dev.sysname, "3", resting, "receiver-features-for-gamepad-tools", false);
	end_resting_sender(resting, release);
	resting = resting_sender(&outsider, &release);
	check_explained(&c.run, c.dev.sysname, "3", resting, "receiver-no-features-from-programs", false);
	end_resting_sender(resting, release);
	/* no sender: the group's allow and the programs' deny both depend
	 * on it; a sender neither matches (a driver) gets the default */
	check_explained(&c.run, c.dev.sysname, "3", 0, NULL, true);

	policyd_case_end(&c);
}

/* (a): only the updater's executable may start a firmware update; a copy
 * of the same program elsewhere may not, whoever runs it. */
static void test_only_the_updater_executable_may_update_firmware(void)
{
	char policy[2048], copy[] = "/tmp/hidraw-set-feature.XXXXXX";
	const struct sender updater = { tool_path(), 0, 0, NULL, 0 };
	const struct sender updater_as_user = { tool_path(), USER_UID, USER_UID, NULL, 0 };
	const struct sender impostor = { copy, 0, 0, NULL, 0 };
	const char *refused[] = { "rule.name=no-firmware-update", "process.uid=0", NULL };
	struct uhid_dev_config cfg = test_device();
	struct policyd_case c;
	static char buf[4 << 20];
	ssize_t n;
	int fd;

	snprintf(policy, sizeof(policy),
		 "{ \"version\": 1, \"devices\": [ {\n"
		 "    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x5704\" },\n"
		 "    \"rules\": [\n"
		 "      { \"name\": \"the-updater\", \"request\": \"set_report\",\n"
		 "        \"report_type\": \"feature\", \"report_id\": \"0xf0\",\n"
		 "        \"sender\": { \"executable\": \"%s\" }, \"action\": \"allow\" },\n"
		 "      { \"name\": \"no-firmware-update\", \"request\": \"set_report\",\n"
		 "        \"report_type\": \"feature\", \"report_id\": \"0xf0\", \"action\": \"deny\" }\n"
		 "    ] } ] }\n", tool_path());
	/* The same bytes, another file. */
	fd = mkstemp(copy);
	CHECK_OK(fd);
	n = read_file(tool_path(), buf, sizeof(buf));
	CHECK(n > 0 && (size_t)n < sizeof(buf), "%s: %zd", tool_path(), n);
	CHECK_EQ(write(fd, buf, (size_t)n), n);
	CHECK_OK(fchmod(fd, 0755));
	close(fd);

	policyd_case_start(&c, &cfg, policy);
	CHECK_OK(chmod(c.dev.hidraw, 0666));

	CHECK_EQ(send_feature_as(&updater, c.dev.hidraw, 0xf0), 0);
	CHECK_EQ(send_feature_as(&updater_as_user, c.dev.hidraw, 0xf0), 0);
	CHECK_EQ(send_feature_as(&impostor, c.dev.hidraw, 0xf0), EPERM);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_SET_REPORT, 0xf0, 2, 3000));
	usleep(200 * 1000);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 0xf0), 2);
	CHECK_EQ(policyd_audit_count(&c.run, refused, 1, 3000), 1);

	policyd_case_end(&c);
	unlink(copy);
}

/* SRC's bytes as a new file DST of mode 0755. */
static void copy_program(const char *src, const char *dst)
{
	static char buf[4 << 20];
	ssize_t n = read_file(src, buf, sizeof(buf));
	int fd;

	CHECK(n > 0 && (size_t)n < sizeof(buf), "%s: %zd", src, n);
	fd = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	CHECK(fd >= 0, "%s: %s", dst, strerror(errno));
	CHECK_EQ(write(fd, buf, (size_t)n), n);
	CHECK_OK(fchmod(fd, 0755));
	CHECK_OK(close(fd));
}

/* The case's own mount namespace: what it mounts goes when it ends, and
 * the daemon it starts sees the same mounts. */
static void own_mount_namespace(void)
{
	CHECK_OK(unshare(CLONE_NEWNS));
	CHECK_OK(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
}

/* A policy whose rules name executable EXE: report 0xf0 for it alone,
 * report 3 for anyone but it. */
static void executable_policy(char *policy, size_t size, const char *exe)
{
	snprintf(policy, size,
		 "{ \"version\": 1, \"devices\": [ {\n"
		 "    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x5704\" },\n"
		 "    \"default\": \"allow\",\n"
		 "    \"rules\": [\n"
		 "      { \"name\": \"the-updater\", \"request\": \"set_report\",\n"
		 "        \"report_type\": \"feature\", \"report_id\": \"0xf0\",\n"
		 "        \"sender\": { \"executable\": \"%s\" }, \"action\": \"allow\" },\n"
		 "      { \"name\": \"no-firmware-update\", \"request\": \"set_report\",\n"
		 "        \"report_type\": \"feature\", \"report_id\": \"0xf0\", \"action\": \"deny\" },\n"
		 "      { \"name\": \"not-from-the-updater\", \"request\": \"set_report\",\n"
		 "        \"report_type\": \"feature\", \"report_id\": 3,\n"
		 "        \"sender\": { \"executable\": \"%s\" }, \"action\": \"deny\" }\n"
		 "    ] } ] }\n", exe, exe);
}

/* executable_policy(EXE) holds for EXE and for OTHER, another program
 * (as root): its allow and its deny both know EXE, and OTHER for neither.
 * Both ends: the errno each got, and what the device received. */
static void check_the_firewall_knows(struct policyd_case *c, const char *exe, const char *other)
{
	const struct sender updater = { exe, 0, 0, NULL, 0 };
	const struct sender another = { other, 0, 0, NULL, 0 };
	unsigned long f0 = uhid_dev_count(&c->dev, UHID_DEV_SET_REPORT, 0xf0);
	unsigned long r3 = uhid_dev_count(&c->dev, UHID_DEV_SET_REPORT, 3);

	CHECK_EQ(send_feature_as(&updater, c->dev.hidraw, 0xf0), 0);
	CHECK_EQ(send_feature_as(&another, c->dev.hidraw, 0xf0), EPERM);
	CHECK_EQ(send_feature_as(&updater, c->dev.hidraw, 3), EPERM);
	CHECK_EQ(send_feature_as(&another, c->dev.hidraw, 3), 0);
	CHECK_OK(uhid_dev_wait_count(&c->dev, UHID_DEV_SET_REPORT, 0xf0, f0 + 1, 3000));
	CHECK_OK(uhid_dev_wait_count(&c->dev, UHID_DEV_SET_REPORT, 3, r3 + 1, 3000));
	usleep(200 * 1000);
	CHECK_EQ(uhid_dev_count(&c->dev, UHID_DEV_SET_REPORT, 0xf0), f0 + 1);
	CHECK_EQ(uhid_dev_count(&c->dev, UHID_DEV_SET_REPORT, 3), r3 + 1);
}

/* Run ARGV (a program found in PATH) to its end; it must succeed. What it
 * prints goes, but its errors. */
static void run_program(const char *const *argv)
{
	int status, null;
	pid_t child = fork();

	CHECK_OK(child);
	if (child == 0) {
		null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
			_exit(126);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	CHECK_EQ(waitpid(child, &status, 0), child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: status %#x", argv[0], status);
}

/* A free loop device over IMAGE, written to PATH; the device lets go of
 * IMAGE when its last user (the mount) does. Returns its open fd. */
static int loop_attach(const char *image, char *path, size_t size)
{
	struct loop_config config = { .info.lo_flags = LO_FLAGS_AUTOCLEAR };
	int control, n, fd;

	control = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	CHECK(control >= 0, "/dev/loop-control: %s", strerror(errno));
	n = ioctl(control, LOOP_CTL_GET_FREE);
	CHECK_OK(n);
	close(control);
	snprintf(path, size, "/dev/loop%d", n);
	fd = open(path, O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0, "%s: %s", path, strerror(errno));
	config.fd = open(image, O_RDWR | O_CLOEXEC);
	CHECK_OK(config.fd);
	CHECK_OK(ioctl(fd, LOOP_CONFIGURE, &config));
	close(config.fd);
	return fd;
}

static void btrfs_subvolume_create(const char *parent, const char *name)
{
	struct btrfs_ioctl_vol_args args = {};
	int fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	CHECK(fd >= 0, "%s: %s", parent, strerror(errno));
	snprintf(args.name, sizeof(args.name), "%s", name);
	CHECK(ioctl(fd, BTRFS_IOC_SUBVOL_CREATE, &args) == 0, "%s/%s: %s", parent, name,
	      strerror(errno));
	close(fd);
}

/* Is NAME a file system the running kernel has (/proc/filesystems)? */
static bool kernel_has_filesystem(const char *name)
{
	char line[128];
	bool found = false;
	FILE *f = fopen("/proc/filesystems", "re");

	CHECK(f, "/proc/filesystems: %s", strerror(errno));
	while (!found && fgets(line, sizeof(line), f)) {
		char *fs = strrchr(line, '\t');

		fs = fs ? fs + 1 : line;
		fs[strcspn(fs, "\n")] = '\0';
		found = strcmp(fs, name) == 0;
	}
	fclose(f);
	return found;
}

/* Fedora's and openSUSE's root: btrfs, where stat() gives each subvolume
 * a device of its own, and where the first file of every new subvolume
 * has the same inode number. The updater in one subvolume is known to the
 * firewall; its twin in another, with the same inode number, is not. */
static void test_an_executable_on_btrfs_is_known_by_its_subvolume(void)
{
	char dir[] = "/tmp/hp-btrfs.XXXXXX", image[64], mnt[64], loop[32], exe[128], twin[128];
	char policy[2048];
	struct uhid_dev_config cfg = test_device();
	struct policyd_case c;
	struct stat a, b;
	int fd, loop_fd;

	/* kernel/build checks that the default test kernels have it */
	if (!kernel_has_filesystem("btrfs"))
		test_skip("this kernel has no btrfs (the -debug kernels leave it out, kernel/debug.fragment)");
	CHECK(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
	own_mount_namespace();
	snprintf(image, sizeof(image), "%s/image", dir);
	snprintf(mnt, sizeof(mnt), "%s/mnt", dir);
	fd = open(image, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	CHECK_OK(fd);
	CHECK_OK(ftruncate(fd, 256 << 20));
	close(fd);
	run_program((const char *const[]){ "mkfs.btrfs", "-q", image, NULL });
	loop_fd = loop_attach(image, loop, sizeof(loop));
	CHECK_OK(mkdir(mnt, 0755));
	CHECK(mount(loop, mnt, "btrfs", 0, NULL) == 0, "mount %s: %s", loop, strerror(errno));
	close(loop_fd);
	CHECK_OK(chmod(mnt, 0755));
	btrfs_subvolume_create(mnt, "a");
	btrfs_subvolume_create(mnt, "b");
	snprintf(exe, sizeof(exe), "%s/a/hidraw-set-feature", mnt);
	snprintf(twin, sizeof(twin), "%s/b/hidraw-set-feature", mnt);
	copy_program(tool_path(), exe);
	copy_program(tool_path(), twin);
	CHECK_OK(stat(exe, &a));
	CHECK_OK(stat(twin, &b));
	CHECK(a.st_ino == b.st_ino && a.st_dev != b.st_dev,
	      "not twins: %llu on %#llx, %llu on %#llx", (unsigned long long)a.st_ino,
	      (unsigned long long)a.st_dev, (unsigned long long)b.st_ino,
	      (unsigned long long)b.st_dev);

	executable_policy(policy, sizeof(policy), exe);
	policyd_case_start(&c, &cfg, policy);
	CHECK_OK(chmod(c.dev.hidraw, 0666));
	check_the_firewall_knows(&c, exe, twin);
	policyd_case_end(&c);

	CHECK_OK(umount2(mnt, 0));
	unlink(image);
	rmdir(mnt);
	rmdir(dir);
}

/* An overlay at DIR/merged with the updater in its lower layer, and the
 * lower and upper layers on one tmpfs (SAMEFS) or each on its own. */
static void mount_overlay(const char *dir, bool samefs)
{
	char lower[128], rw[128], options[512], path[160];

	snprintf(lower, sizeof(lower), "%s/lower", dir);
	snprintf(rw, sizeof(rw), "%s/rw", dir);
	snprintf(path, sizeof(path), "%s/merged", dir);
	CHECK_OK(mkdir(lower, 0755));
	CHECK_OK(mkdir(rw, 0755));
	CHECK_OK(mkdir(path, 0755));
	if (!samefs) {
		CHECK_OK(mount("tmpfs", lower, "tmpfs", 0, "mode=0755"));
		CHECK_OK(mount("tmpfs", rw, "tmpfs", 0, "mode=0755"));
	}
	snprintf(path, sizeof(path), "%s/upper", rw);
	CHECK_OK(mkdir(path, 0755));
	snprintf(path, sizeof(path), "%s/work", rw);
	CHECK_OK(mkdir(path, 0755));
	snprintf(path, sizeof(path), "%s/hidraw-set-feature", lower);
	copy_program(tool_path(), path);
	snprintf(options, sizeof(options), "lowerdir=%s,upperdir=%s/upper,workdir=%s/work,xino=off",
		 lower, rw, rw);
	snprintf(path, sizeof(path), "%s/merged", dir);
	CHECK(mount("overlay", path, "overlay", 0, options) == 0, "mount overlay %s: %s", options,
	      strerror(errno));
}

/* The updater on an overlay (containers; SteamOS's and Bazzite's /etc and
 * /var, composefs roots): known in its lower layer, after it was copied up
 * by a change of mode, and to a policy read after that; another program
 * made on the overlay is not. Layers on one file system, and on two
 * without xino, where the daemon warns that inode numbers may repeat
 * across layers. */
static void on_an_overlay(bool samefs)
{
	char dir[] = "/tmp/hp-overlay.XXXXXX", exe[128], other[128], upper[128], policy[2048];
	struct uhid_dev_config cfg = test_device();
	struct policyd_case c;
	struct stat st;

	CHECK(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
	CHECK_OK(chmod(dir, 0755));
	mount_overlay(dir, samefs);
	snprintf(exe, sizeof(exe), "%s/merged/hidraw-set-feature", dir);
	snprintf(other, sizeof(other), "%s/merged/another", dir);
	snprintf(upper, sizeof(upper), "%s/rw/upper/hidraw-set-feature", dir);
	copy_program(tool_path(), other);

	executable_policy(policy, sizeof(policy), exe);
	policyd_case_start(&c, &cfg, policy);
	CHECK_OK(chmod(c.dev.hidraw, 0666));
	CHECK(policyd_said(&c.run, "without xino", samefs ? 300 : 3000) == !samefs,
	      "the daemon %s about layers on different file systems", samefs ? "warned" : "did not warn");
	CHECK(stat(upper, &st) < 0 && errno == ENOENT, "%s is there before the copy-up", upper);
	check_the_firewall_knows(&c, exe, other);

	CHECK_OK(chmod(exe, 0750));
	CHECK_OK(stat(upper, &st));
	check_the_firewall_knows(&c, exe, other);
	CHECK_OK(policyd_reload(&c.run));
	check_the_firewall_knows(&c, exe, other);
	policyd_case_end(&c);
}

static void test_an_executable_on_overlayfs_is_known_in_every_layer(void)
{
	own_mount_namespace();
	on_an_overlay(false);
	on_an_overlay(true);
}

/* S's program started under ptrace(2) by this process (PTRACE_TRACEME,
 * as a debugger starts its child; a tracer of the same user may do so, or
 * attach): the errno the kernel answered its request. */
static int send_feature_traced(const struct sender *s, const char *node, unsigned report_id)
{
	char id[8];
	int status;
	pid_t child;

	snprintf(id, sizeof(id), "%u", report_id);
	child = fork();
	CHECK_OK(child);
	if (child == 0) {
		if (setgroups(s->n_groups, s->groups) || setresgid(s->gid, s->gid, s->gid) ||
		    setresuid(s->uid, s->uid, s->uid) || ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(101);
		execl(s->exe, s->exe, node, id, (char *)NULL);
		_exit(102);
	}
	/* Let it run from each stop (the exec's SIGTRAP first) until it
	 * ends, traced throughout. */
	for (;;) {
		CHECK_EQ(waitpid(child, &status, 0), child);
		if (!WIFSTOPPED(status))
			break;
		CHECK_OK(ptrace(PTRACE_CONT, child, NULL,
				(void *)(long)(WSTOPSIG(status) == SIGTRAP ? 0 : WSTOPSIG(status))));
	}
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) < 100, "%s traced: status %#x", s->exe,
	      status);
	return WEXITSTATUS(status);
}

/* A traced program runs what its tracer makes it run: the firewall does not
 * take its executable as its identity. The allowed updater, started under
 * ptrace, is refused like any other program, by the deny that follows the
 * allow, while the same program untraced passes. */
static void test_a_traced_program_is_not_its_executable(void)
{
	char policy[2048];
	const struct sender updater = { tool_path(), USER_UID, USER_UID, NULL, 0 };
	const char *refused[] = { "rule.name=no-firmware-update", "process.uid=1000", NULL };
	struct uhid_dev_config cfg = test_device();
	struct policyd_case c;

	snprintf(policy, sizeof(policy),
		 "{ \"version\": 1, \"devices\": [ {\n"
		 "    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x5704\" },\n"
		 "    \"rules\": [\n"
		 "      { \"name\": \"the-updater\", \"request\": \"set_report\",\n"
		 "        \"report_type\": \"feature\", \"report_id\": \"0xf0\",\n"
		 "        \"sender\": { \"executable\": \"%s\" }, \"action\": \"allow\" },\n"
		 "      { \"name\": \"no-firmware-update\", \"request\": \"set_report\",\n"
		 "        \"report_type\": \"feature\", \"report_id\": \"0xf0\", \"action\": \"deny\" }\n"
		 "    ] } ] }\n", tool_path());
	policyd_case_start(&c, &cfg, policy);
	CHECK_OK(chmod(c.dev.hidraw, 0666));

	CHECK_EQ(send_feature_as(&updater, c.dev.hidraw, 0xf0), 0);
	CHECK_EQ(send_feature_traced(&updater, c.dev.hidraw, 0xf0), EPERM);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_SET_REPORT, 0xf0, 1, 3000));
	usleep(200 * 1000);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 0xf0), 1);
	CHECK_EQ(policyd_audit_count(&c.run, refused, 1, 3000), 1);

	policyd_case_end(&c);
}

/* A rule for one user leaves the others alone. */
static void test_a_rule_for_one_user_refuses_that_user_alone(void)
{
	static const char policy[] =
		"{ \"version\": 1, \"devices\": [ {\n"
		"    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x5704\" },\n"
		"    \"rules\": [\n"
		"      { \"name\": \"not-for-1000\", \"request\": \"set_report\",\n"
		"        \"report_type\": \"feature\", \"report_id\": 4,\n"
		"        \"sender\": { \"user\": [1000, 1001] }, \"action\": \"deny\" }\n"
		"    ] } ] }\n";
	const struct sender user = { tool_path(), USER_UID, USER_UID, NULL, 0 };
	const struct sender other = { tool_path(), 1002, 1002, NULL, 0 };
	struct uhid_dev_config cfg = test_device();
	struct policyd_case c;

	policyd_case_start(&c, &cfg, policy);
	CHECK_OK(chmod(c.dev.hidraw, 0666));

	CHECK_EQ(send_feature_as(&user, c.dev.hidraw, 4), EPERM);
	CHECK_EQ(send_feature_as(&other, c.dev.hidraw, 4), 0);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_SET_REPORT, 4, 1, 3000));
	usleep(200 * 1000);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 4), 1);

	policyd_case_end(&c);
}

/* A sender with 40 supplementary groups (more than the 32 the firewall
 * once read) is judged on all of them: an allow for its 40th group lets it
 * through, and so does an allow for its user alone; the same 40 groups
 * without the allowed one, and another user, stay refused. setgroups(2) is
 * given them in descending order: the kernel sorts them, and the firewall's
 * search relies on that. */
static void test_a_sender_with_40_groups_is_judged_on_all_of_them(void)
{
	static const char policy[] =
		"{ \"version\": 1, \"devices\": [ {\n"
		"    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x5704\" },\n"
		"    \"rules\": [\n"
		"      { \"name\": \"group-40\", \"request\": \"set_report\",\n"
		"        \"report_type\": \"feature\", \"report_id\": 3,\n"
		"        \"sender\": { \"group\": 5040 }, \"action\": \"allow\" },\n"
		"      { \"name\": \"user-1000\", \"request\": \"set_report\",\n"
		"        \"report_type\": \"feature\", \"report_id\": 4,\n"
		"        \"sender\": { \"user\": 1000 }, \"action\": \"allow\" },\n"
		"      { \"name\": \"no-features\", \"request\": \"set_report\",\n"
		"        \"report_type\": \"feature\", \"report_id\": \"any\", \"action\": \"deny\" }\n"
		"    ] } ] }\n";
	gid_t forty[40], others[40];
	const struct sender member = { tool_path(), USER_UID, USER_UID, forty, 40 };
	const struct sender outsider = { tool_path(), USER_UID, USER_UID, others, 40 };
	const struct sender other_user = { tool_path(), 1001, 1001, forty, 40 };
	struct uhid_dev_config cfg = test_device();
	struct policyd_case c;

	for (int i = 0; i < 40; i++) {
		forty[i] = 5040 - i;	/* group #40, 5040, comes first */
		others[i] = 6040 - i;
	}
	policyd_case_start(&c, &cfg, policy);
	CHECK_OK(chmod(c.dev.hidraw, 0666));

	CHECK_EQ(send_feature_as(&member, c.dev.hidraw, 3), 0);
	CHECK_EQ(send_feature_as(&member, c.dev.hidraw, 4), 0);
	CHECK_EQ(send_feature_as(&outsider, c.dev.hidraw, 3), EPERM);
	CHECK_EQ(send_feature_as(&other_user, c.dev.hidraw, 4), EPERM);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_SET_REPORT, 3, 1, 3000));
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_SET_REPORT, 4, 1, 3000));
	usleep(200 * 1000);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 3), 1);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 4), 1);

	policyd_case_end(&c);
}

/* Become UID (its own gid, no supplementary groups); in a child. */
static void become(uid_t uid)
{
	if (setgroups(0, NULL) || setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
		_exit(120);
}

/* How a sender hands io_uring an output report. */
enum uring_way {
	URING_OWN,		/* its own ring: an io worker of its own writes */
	URING_PERSONALITY,	/* a personality another user registered on its ring */
	URING_PERSONALITY_NONBLOCK, /* the same on a node opened O_NONBLOCK */
	URING_SQPOLL,		/* another user's SQPOLL ring, kept after a change of user */
	URING_CMD,		/* an ioctl through io_uring (IORING_OP_URING_CMD) */
};

/*
 * Output report 2 to NODE through io_uring, submitted by a process of uid
 * SUBMITTER, the way WAY says; where another process lends the ring or its
 * credentials, that one runs as uid LENDER. Returns what the completion
 * said (the bytes written, or -errno).
 */
static int write_through_uring(const char *node, enum uring_way way, uid_t submitter,
			       uid_t lender)
{
	int result[2], status, res = -1000;
	pid_t child;

	CHECK_OK(pipe(result));
	child = fork();
	CHECK_OK(child);
	if (child == 0) {
		uint8_t report[64] = { 0x02, 0x5a };
		struct io_uring_sqe sqe = { .opcode = IORING_OP_WRITE,
					    .addr = (uintptr_t)report, .len = sizeof(report) };
		struct uring u;
		pid_t lender_pid = 0;
		int fd, r;

		close(result[0]);
		if (way == URING_PERSONALITY || way == URING_PERSONALITY_NONBLOCK) {
			/* the submitter's ring; the lender, a child
			 * sharing it, registers its own credentials */
			int id_pipe[2], id = -1;

			if (uring_setup(&u, 4, 0) || pipe(id_pipe))
				_exit(121);
			lender_pid = fork();
			if (lender_pid == 0) {
				become(lender);
				id = uring_register_personality(&u);
				_exit(write(id_pipe[1], &id, sizeof(id)) == sizeof(id) ? 0 : 1);
			}
			if (lender_pid < 0 || read(id_pipe[0], &id, sizeof(id)) != sizeof(id) || id <= 0)
				_exit(122);
			become(submitter);
			sqe.personality = (uint16_t)id;
		} else if (way == URING_SQPOLL) {
			/* The lender's SQPOLL ring, kept by a child that
			 * becomes another user, as a program that drops to
			 * another user keeps its rings (a ring's descriptor
			 * cannot be sent over a socket). The ring's thread is
			 * the lender's, and lives while it does. */
			pid_t submitter_pid;

			if (setgroups(0, NULL) || setresgid(lender, lender, 0) ||
			    setresuid(lender, lender, 0))
				_exit(121);
			if (uring_setup(&u, 4, IORING_SETUP_SQPOLL))
				_exit(122);
			submitter_pid = fork();
			if (submitter_pid < 0)
				_exit(123);
			if (submitter_pid > 0) {
				int st;

				_exit(waitpid(submitter_pid, &st, 0) == submitter_pid && WIFEXITED(st) ?
					      WEXITSTATUS(st) : 126);
			}
			/* the saved uid 0 lets it take another */
			if (setresuid(-1, 0, -1))
				_exit(124);
			become(submitter);
		} else {
			become(submitter);
			if (uring_setup(&u, 4, 0))
				_exit(121);
		}
		/* O_NONBLOCK: 6.12 writes at once, in the submitter with
		 * the personality's credentials put over its own; 6.1 does
		 * not write such a node through io_uring at all (EAGAIN).
		 * Otherwise both hand the write to an io worker. */
		fd = open(node, O_RDWR | (way == URING_PERSONALITY_NONBLOCK ? O_NONBLOCK : 0));
		if (fd < 0)
			_exit(123);
		sqe.fd = fd;
		if (way == URING_SQPOLL) {
			if (uring_register_file(&u, fd))
				_exit(125);
			sqe.fd = 0;
			sqe.flags = IOSQE_FIXED_FILE;
		}
		if (way == URING_CMD)
			sqe = (struct io_uring_sqe){ .opcode = IORING_OP_URING_CMD, .fd = fd };
		r = uring_run(&u, &sqe);
		if (lender_pid > 0)
			waitpid(lender_pid, NULL, 0);
		_exit(write(result[1], &r, sizeof(r)) == sizeof(r) ? 0 : 127);
	}
	close(result[1]);
	CHECK_EQ(read(result[0], &res, sizeof(res)), (ssize_t)sizeof(res));
	close(result[0]);
	CHECK_EQ(waitpid(child, &status, 0), child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %#x", status);
	return res;
}

/* write(2) of output report 2 to NODE as UID: 0 or the errno. */
static int write_output_as(const char *node, uid_t uid)
{
	int status;
	pid_t child = fork();

	CHECK_OK(child);
	if (child == 0) {
		uint8_t report[64] = { 0x02, 0x5a };
		int fd;

		become(uid);
		fd = open(node, O_RDWR);
		if (fd < 0)
			_exit(110);
		_exit(write(fd, report, sizeof(report)) == sizeof(report) ? 0 : errno);
	}
	CHECK_EQ(waitpid(child, &status, 0), child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) < 100, "status %#x", status);
	return WEXITSTATUS(status);
}

/*
 * io_uring lends no identity. Its io workers and SQPOLL threads write with
 * credentials that need not be the writer's: another user's SQPOLL ring
 * writes with that user's, and a personality another user registered puts
 * its credentials on the submitter's request. A request made through
 * io_uring is therefore nobody's to the firewall: the allow for user 1000
 * lets user 1000's write(2) through and none of these, not even user
 * 1000's own ring; the deny and default still apply, and the records say
 * the identity may have been lent. Writes are what io_uring can make of a
 * hidraw node: hidraw has no uring_cmd, so no ioctl (feature reports) goes
 * through it at all.
 */
static void test_io_uring_lends_no_identity(void)
{
	static const char policy[] =
		"{ \"version\": 1, \"devices\": [ {\n"
		"    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x5704\" },\n"
		"    \"rules\": [\n"
		"      { \"name\": \"user-1000\", \"request\": \"output_report\", \"report_id\": 2,\n"
		"        \"sender\": { \"user\": 1000 }, \"action\": \"allow\" },\n"
		"      { \"name\": \"no-output\", \"request\": \"output_report\", \"report_id\": \"any\",\n"
		"        \"action\": \"deny\" }\n"
		"    ] } ] }\n";
	const char *lent[] = { "rule.name=no-output", "process.identity_lent=true", NULL };
	struct uhid_dev_config cfg = test_device();
	struct policyd_case c;
	size_t lent_records;
	int r;

	policyd_case_start(&c, &cfg, policy);
	CHECK_OK(chmod(c.dev.hidraw, 0666));

	CHECK_EQ(write_output_as(c.dev.hidraw, USER_UID), 0);
	CHECK_EQ(write_output_as(c.dev.hidraw, 1001), EPERM);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_OUTPUT, 2, 1, 3000));
	CHECK_EQ(write_through_uring(c.dev.hidraw, URING_OWN, USER_UID, 0), -EPERM);
	CHECK_EQ(write_through_uring(c.dev.hidraw, URING_PERSONALITY, 1001, USER_UID), -EPERM);
	r = write_through_uring(c.dev.hidraw, URING_PERSONALITY_NONBLOCK, 1001, USER_UID);
	CHECK(r == -EPERM || r == -EAGAIN, "a personality's write at once: %d", r);
	lent_records = r == -EPERM ? 4 : 3;
	CHECK_EQ(write_through_uring(c.dev.hidraw, URING_SQPOLL, 1001, USER_UID), -EPERM);
	CHECK_EQ(write_through_uring(c.dev.hidraw, URING_CMD, USER_UID, 0), -EOPNOTSUPP);
	usleep(200 * 1000);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_OUTPUT, 2), 1);
	CHECK_EQ(policyd_audit_count(&c.run, lent, lent_records, 3000), lent_records);

	policyd_case_end(&c);
}

/* The cgroup2 hierarchy at /sys/fs/cgroup (the guest mounts none) and
 * cgroup PATH in it (made with its parents). */
static void make_cgroup(const char *path)
{
	char dir[256];

	if (access("/sys/fs/cgroup/cgroup.controllers", F_OK) < 0)
		CHECK_OK(mount("cgroup2", "/sys/fs/cgroup", "cgroup2", 0, NULL));
	for (const char *p = path; (p = strchr(p + 1, '/')); ) {
		snprintf(dir, sizeof(dir), "/sys/fs/cgroup%.*s", (int)(p - path), path);
		CHECK(mkdir(dir, 0755) == 0 || errno == EEXIST, "%s: %s", dir, strerror(errno));
	}
	snprintf(dir, sizeof(dir), "/sys/fs/cgroup%s", path);
	CHECK(mkdir(dir, 0755) == 0 || errno == EEXIST, "%s: %s", dir, strerror(errno));
}

/* Remove cgroup PATH and its parents that are then empty (once its
 * processes are gone). */
static void remove_cgroup(const char *path)
{
	char dir[256];
	size_t n = strlen(path);

	while (n > 1) {
		snprintf(dir, sizeof(dir), "/sys/fs/cgroup%.*s", (int)n, path);
		if (rmdir(dir) < 0)
			break;
		while (n > 0 && path[n - 1] != '/')
			n--;
		n--;
	}
}

/*
 * A child that moves into cgroup CGROUP, becomes UID, is named COMM and
 * asks for a firmware update (feature report 0xf0) on NODE, which the
 * policy refuses; then, if EXEC_AFTER, it runs /bin/sleep (waiting for a
 * signal), else it exits. *SENT is written when the request was made.
 */
static pid_t cgroup_sender(const char *node, const char *cgroup, uid_t uid, const char *comm,
			   bool exec_after, int sent)
{
	pid_t child = fork();

	CHECK_OK(child);
	if (child == 0) {
		uint8_t buf[64] = { 0xf0 };
		char procs[256], e;
		int fd;

		snprintf(procs, sizeof(procs), "/sys/fs/cgroup%s/cgroup.procs", cgroup);
		fd = open(procs, O_WRONLY);
		if (fd < 0 || write(fd, "0", 1) != 1)
			_exit(130);
		close(fd);
		become(uid);
		prctl(PR_SET_NAME, comm);
		fd = open(node, O_RDWR);
		e = fd < 0 ? 100 : ioctl(fd, HIDIOCSFEATURE(sizeof(buf)), buf) < 0 ? (char)errno : 0;
		if (write(sent, &e, 1) != 1)
			_exit(131);
		if (exec_after)
			execl("/bin/sleep", "sleep", "60", (char *)NULL);
		_exit(0);
	}
	return child;
}

/*
 * A record names the sender as the kernel saw it at the request, whatever
 * it is when the daemon reads the record. The daemon is stopped while two
 * senders ask for a firmware update and then change: a user's process in
 * a cgroup it named fwupd.service inside its session's scope runs another
 * program (exec), and a process of the real fwupd.service exits. Once the
 * daemon goes on: the first is in session-2.scope (not fwupd.service),
 * with its uid and comm, and the executable it sent from (device and
 * inode), not /bin/sleep; the second is in fwupd.service, by the cgroup
 * the kernel recorded, though /proc no longer has it.
 */
static void test_a_record_names_the_sender_as_the_kernel_saw_it(void)
{
	static const char policy[] =
		"{ \"version\": 1, \"devices\": [ {\n"
		"    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x5704\" },\n"
		"    \"rules\": [\n"
		"      { \"name\": \"no-firmware-update\", \"request\": \"set_report\",\n"
		"        \"report_type\": \"feature\", \"report_id\": \"0xf0\", \"action\": \"deny\" }\n"
		"    ] } ] }\n";
	static const char fake[] = "/user.slice/user-1000.slice/session-2.scope/fwupd.service";
	static const char real[] = "/system.slice/fwupd.service";
	struct uhid_dev_config cfg = test_device();
	char pid_fake[32], pid_real[32], ino[32];
	const char *fake_filters[] = { "rule.name=no-firmware-update", pid_fake,
				       "process.unit=session-2.scope",
				       "process.cgroup=/user.slice/user-1000.slice/session-2.scope/fwupd.service",
				       NULL };
	const char *real_filters[] = { "rule.name=no-firmware-update", pid_real,
				       "process.unit=fwupd.service", "process.uid=0", ino, NULL };
	struct policyd_case c;
	struct stat self;
	pid_t a, b;
	int sent[2], status;
	char e;
	json_t *rec;

	CHECK_OK(stat("/proc/self/exe", &self));
	make_cgroup(fake);
	make_cgroup(real);
	policyd_case_start(&c, &cfg, policy);
	CHECK_OK(chmod(c.dev.hidraw, 0666));
	CHECK_OK(pipe(sent));

	CHECK_OK(kill(c.run.pid, SIGSTOP));
	a = cgroup_sender(c.dev.hidraw, fake, USER_UID, "fake-fwupd", true, sent[1]);
	b = cgroup_sender(c.dev.hidraw, real, 0, "fwupd", false, sent[1]);
	CHECK_EQ(read(sent[0], &e, 1), 1);
	CHECK_EQ(e, EPERM);
	CHECK_EQ(read(sent[0], &e, 1), 1);
	CHECK_EQ(e, EPERM);
	CHECK_EQ(waitpid(b, &status, 0), b);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %#x", status);
	/* a has run exec: /proc/A/exe is /bin/sleep now */
	for (int i = 0; i < 100; i++) {
		char link[64], exe[256] = "";

		snprintf(link, sizeof(link), "/proc/%d/exe", (int)a);
		if (readlink(link, exe, sizeof(exe) - 1) > 0 && strstr(exe, "sleep"))
			break;
		CHECK(i < 99, "%s is still %s", link, exe);
		usleep(20 * 1000);
	}
	CHECK_OK(kill(c.run.pid, SIGCONT));

	snprintf(pid_fake, sizeof(pid_fake), "process.pid=%d", (int)a);
	snprintf(pid_real, sizeof(pid_real), "process.pid=%d", (int)b);
	snprintf(ino, sizeof(ino), "process.exe_ino=%llu", (unsigned long long)self.st_ino);
	CHECK_EQ(policyd_audit_count(&c.run, real_filters, 1, 5000), 1);
	CHECK_EQ(policyd_audit_count(&c.run, fake_filters, 1, 5000), 1);
	rec = policyd_audit_last(&c.run, fake_filters);
	CHECK(rec, "no record of the fake fwupd");
	CHECK_EQ(json_path_int(rec, "process.uid"), USER_UID);
	CHECK(!strcmp(json_path_str_or_empty(rec, "process.comm"), "fake-fwupd"), "comm %s",
	      json_path_str_or_empty(rec, "process.comm"));
	CHECK_EQ(json_path_int(rec, "process.exe_ino"), (long long)self.st_ino);
	CHECK(!strstr(json_path_str_or_empty(rec, "process.exe"), "sleep"), "exe %s",
	      json_path_str_or_empty(rec, "process.exe"));
	CHECK(!json_path(rec, "process.read_later"), "read_later in a record the kernel named");
	json_decref(rec);

	kill(a, SIGKILL);
	CHECK_EQ(waitpid(a, &status, 0), a);
	policyd_case_end(&c);
	remove_cgroup(fake);
	remove_cgroup(real);
}

/* A child of this program, as uid UID, that sends a firmware update when
 * told to through *GO and answers the errno through *DONE. */
static pid_t waiting_sender(const char *node, uid_t uid, int *go, int *done)
{
	int to_child[2], from_child[2];
	pid_t child;

	CHECK_OK(pipe(to_child));
	CHECK_OK(pipe(from_child));
	child = fork();
	CHECK_OK(child);
	if (child == 0) {
		uint8_t buf[64] = { 0xf0 };
		char c, e;
		int fd;

		close(to_child[1]);
		close(from_child[0]);
		if (setgroups(0, NULL) || setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
			_exit(2);
		if (read(to_child[0], &c, 1) != 1)
			_exit(3);
		fd = open(node, O_RDWR);
		e = fd < 0 ? (char)100 : ioctl(fd, HIDIOCSFEATURE(sizeof(buf)), buf) < 0 ? (char)errno : 0;
		_exit(write(from_child[1], &e, 1) == 1 ? 0 : 4);
	}
	close(to_child[0]);
	close(from_child[1]);
	*go = to_child[1];
	*done = from_child[0];
	return child;
}

static int let_it_send(pid_t child, int go, int done)
{
	char e = 127;
	int status;

	CHECK_EQ(write(go, "g", 1), 1);
	CHECK_EQ(read(done, &e, 1), 1);
	CHECK_EQ(waitpid(child, &status, 0), child);
	close(go);
	close(done);
	return e;
}

/* hid-policyctl allow --pid: the window opens for that process's user and
 * program alone, and for every process of theirs, not for that one alone
 * (as hid-policy.d(5) and hid-policyctl(1) say); --executable for one
 * program, whoever runs it. */
static void test_a_temporary_allow_opens_for_one_process_or_program(void)
{
	static const char policy[] =
		"{ \"version\": 1, \"devices\": [ {\n"
		"    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x5704\" },\n"
		"    \"rules\": [\n"
		"      { \"name\": \"no-firmware-update\", \"request\": \"set_report\",\n"
		"        \"report_type\": \"feature\", \"report_id\": \"0xf0\", \"action\": \"deny\" }\n"
		"    ] } ] }\n";
	const struct sender tool_as_user = { tool_path(), USER_UID, USER_UID, NULL, 0 };
	const struct sender tool_as_other = { tool_path(), 1001, 1001, NULL, 0 };
	struct uhid_dev_config cfg = test_device();
	struct policyctl_output out;
	struct policyd_case c;
	int go, done, go2, done2, go3, done3;
	pid_t updater, stranger, sibling;
	char pid[16];

	policyd_case_start(&c, &cfg, policy);
	CHECK_OK(chmod(c.dev.hidraw, 0666));
	updater = waiting_sender(c.dev.hidraw, USER_UID, &go, &done);
	stranger = waiting_sender(c.dev.hidraw, 1001, &go2, &done2);
	sibling = waiting_sender(c.dev.hidraw, USER_UID, &go3, &done3);
	usleep(100 * 1000);	/* both have dropped to their user */

	snprintf(pid, sizeof(pid), "%d", (int)updater);
	POLICYCTL(&c.run, (uid_t)-1, &out, "allow", c.dev.sysname, "--for", "60s", "--pid", pid);
	CHECK(out.status == 0, "allow --pid: exit %d: %s", out.status, out.err);
	policyctl_output_done(&out);
	/* explain: the allow decides for that process alone */
	check_explained(&c.run, c.dev.sysname, "0xf0", updater, "temporary-allow", false);
	check_explained(&c.run, c.dev.sysname, "0xf0", stranger, "no-firmware-update", false);
	check_explained(&c.run, c.dev.sysname, "0xf0", 0, "temporary-allow", true);
	/* The same user with another program, and the same program as
	 * another user, stay refused. */
	CHECK_EQ(send_feature_as(&tool_as_user, c.dev.hidraw, 0xf0), EPERM);
	CHECK_EQ(let_it_send(stranger, go2, done2), EPERM);
	CHECK_EQ(let_it_send(updater, go, done), 0);
	/* another process of that user running that program: let through */
	CHECK_EQ(let_it_send(sibling, go3, done3), 0);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_SET_REPORT, 0xf0, 2, 3000));

	POLICYCTL(&c.run, (uid_t)-1, &out, "revoke", c.dev.sysname);
	CHECK(out.status == 0, "revoke: exit %d: %s", out.status, out.err);
	policyctl_output_done(&out);
	POLICYCTL(&c.run, (uid_t)-1, &out, "allow", c.dev.sysname, "--for", "60s",
		  "--executable", tool_path());
	CHECK(out.status == 0, "allow --executable: exit %d: %s", out.status, out.err);
	policyctl_output_done(&out);
	CHECK_EQ(send_feature_as(&tool_as_other, c.dev.hidraw, 0xf0), 0);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_SET_REPORT, 0xf0, 3, 3000));
	usleep(200 * 1000);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 0xf0), 3);

	policyd_case_end(&c);
}

/* hid-policyctl allow --group: the window opens for the group's members,
 * by supplementary group or by gid, as a rule's group does, and for no
 * one else; the grant shows the group. */
static void test_a_temporary_allow_for_a_group_opens_for_its_members_alone(void)
{
	static const char policy[] =
		"{ \"version\": 1, \"devices\": [ {\n"
		"    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x5704\" },\n"
		"    \"rules\": [\n"
		"      { \"name\": \"no-firmware-update\", \"request\": \"set_report\",\n"
		"        \"report_type\": \"feature\", \"report_id\": \"0xf0\", \"action\": \"deny\" }\n"
		"    ] } ] }\n";
	const gid_t tools[] = { 100, TOOLS_GID };
	const struct sender member = { tool_path(), USER_UID, USER_UID, tools, 2 };
	const struct sender primary = { tool_path(), 1001, TOOLS_GID, NULL, 0 };
	const struct sender outsider = { tool_path(), USER_UID, USER_UID, tools, 1 };
	struct uhid_dev_config cfg = test_device();
	struct policyd_case c;
	char gid[16];
	json_t *j;

	policyd_case_start(&c, &cfg, policy);
	CHECK_OK(chmod(c.dev.hidraw, 0666));
	snprintf(gid, sizeof(gid), "%d", TOOLS_GID);
	j = POLICYCTL_JSON(&c.run, (uid_t)-1, "allow", c.dev.sysname, "--for", "60s",
			   "--request", "set_report", "--report", "feature", "--id", "0xf0",
			   "--group", gid);
	CHECK_EQ(json_array_size(json_path(j, "exception.for.gids")), 1);
	CHECK_EQ(json_integer_value(json_array_get(json_path(j, "exception.for.gids"), 0)), TOOLS_GID);
	json_decref(j);

	CHECK_EQ(send_feature_as(&outsider, c.dev.hidraw, 0xf0), EPERM);
	CHECK_EQ(send_feature_as(&member, c.dev.hidraw, 0xf0), 0);
	CHECK_EQ(send_feature_as(&primary, c.dev.hidraw, 0xf0), 0);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_SET_REPORT, 0xf0, 2, 3000));
	usleep(200 * 1000);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 0xf0), 2);

	policyd_case_end(&c);
}

int main(int argc, char **argv)
{
	static const struct test_case tests[] = {
		{ "only_a_group_member_may_send_feature_reports",
		  test_only_a_group_member_may_send_feature_reports },
		{ "a_traced_program_is_not_its_executable",
		  test_a_traced_program_is_not_its_executable },
		{ "only_the_updater_executable_may_update_firmware",
		  test_only_the_updater_executable_may_update_firmware },
		{ "a_rule_for_one_user_refuses_that_user_alone",
		  test_a_rule_for_one_user_refuses_that_user_alone },
		{ "a_temporary_allow_opens_for_one_process_or_program",
		  test_a_temporary_allow_opens_for_one_process_or_program },
		{ "a_temporary_allow_for_a_group_opens_for_its_members_alone",
		  test_a_temporary_allow_for_a_group_opens_for_its_members_alone },
		{ "a_sender_with_40_groups_is_judged_on_all_of_them",
		  test_a_sender_with_40_groups_is_judged_on_all_of_them },
		{ "io_uring_lends_no_identity", test_io_uring_lends_no_identity },
		{ "a_record_names_the_sender_as_the_kernel_saw_it",
		  test_a_record_names_the_sender_as_the_kernel_saw_it },
	};
	/* The file system an executable is on, whatever the transport. */
	static const struct test_case file_system_tests[] = {
		{ "an_executable_on_btrfs_is_known_by_its_subvolume",
		  test_an_executable_on_btrfs_is_known_by_its_subvolume },
		{ "an_executable_on_overlayfs_is_known_in_every_layer",
		  test_an_executable_on_overlayfs_is_known_in_every_layer },
	};
	int failed;

	failed = test_main(argc, argv, "e2e-sender", tests, ARRAY_SIZE(tests));
	failed |= test_main(argc, argv, "e2e-sender", file_system_tests,
			    ARRAY_SIZE(file_system_tests));
	backend = TEST_DEV_USB;
	failed |= test_main(argc, argv, "e2e-sender/usb", tests, ARRAY_SIZE(tests));
	return failed;
}
