// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A rule's sender: parsed and resolved when the policy is read (names to
 * ids, executables to file identities), refused where it cannot mean
 * anything, and evaluated as the firewall evaluates it.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "common/util.h"
#include "enforce/enforce.h"
#include "policy-helpers.h"

static const struct policy_device DEVICE = { .bus = 0x03, .vendor = 0x1234, .product = 0x5704 };

/* A document with one rule set matching DEVICE and RULES. */
static struct policy *load_rules(const char *rules, struct diag *d)
{
	char doc[4096];

	snprintf(doc, sizeof(doc),
		 "{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x1234', 'product': '0x5704'}, 'rules': [%s]}]}",
		 rules);
	return load_text("t.json", doc, d);
}

static struct policy_verdict decide(const struct hid_device_rules *r, uint8_t id,
				    const struct policy_sender_id *sender)
{
	const struct policy_request req = {
		.kind = HID_RULE_KIND_SET_FEATURE, .report_id = id,
		.data = &id, .len = 1, .sender = sender,
	};
	struct policy_verdict v;

	policy_evaluate(r, &req, &v);
	return v;
}

static void names_resolve_to_ids_and_lists_are_kept(void)
{
	struct diag d = {};
	struct policy *p = load_rules(
		"{'name': 'a', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3,"
		" 'sender': {'user': ['root', 1000], 'group': 'root', 'origin': 'user'}, 'action': 'allow'}", &d);
	const struct hid_rule_sender *s;

	CHECK(p, "policy rejected");
	s = &p->rules[0].sender;
	CHECK_EQ(s->fields, HID_SENDER_F_ORIGIN | HID_SENDER_F_USER | HID_SENDER_F_GROUP);
	CHECK_EQ(s->origin, HID_SENDER_ORIGIN_USER);
	CHECK_EQ(s->n_uids, 2);
	CHECK_EQ(s->uids[0], 0);
	CHECK_EQ(s->uids[1], 1000);
	CHECK_EQ(s->n_gids, 1);
	CHECK_EQ(s->gids[0], 0);
	policy_free(p);
	diag_done(&d);
}

static void an_executable_is_its_device_and_inode(void)
{
	struct diag d = {};
	struct policy *p = load_rules(
		"{'name': 'a', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3,"
		" 'sender': {'executable': '/bin/sh'}, 'action': 'allow'}", &d);
	struct stat st;

	CHECK(p, "policy rejected");
	CHECK_OK(stat("/bin/sh", &st));
	CHECK_EQ(p->rules[0].sender.n_exes, 1);
	CHECK_EQ(p->rules[0].sender.exes[0].ino, (uint64_t)st.st_ino);
	CHECK_EQ(p->rules[0].sender.exes[0].dev, major(st.st_dev) << 20 | minor(st.st_dev));
	policy_free(p);
	diag_done(&d);
}

static uint32_t kernel_dev(dev_t dev)
{
	return major(dev) << 20 | minor(dev);
}

static void write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);

	CHECK(fd >= 0, "%s: %s", path, strerror(errno));
	CHECK_EQ(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	CHECK_OK(close(fd));
}

/* Root of a user and mount namespace of its own, where overlays and
 * tmpfs may be mounted without privileges; this test's process only. */
static void enter_own_namespaces(void)
{
	char map[64];
	uid_t uid = getuid();
	gid_t gid = getgid();

	if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
		SKIP("no user namespace here: %s", strerror(errno));
	write_text("/proc/self/setgroups", "deny");
	snprintf(map, sizeof(map), "0 %u 1", (unsigned)uid);
	write_text("/proc/self/uid_map", map);
	snprintf(map, sizeof(map), "0 %u 1", (unsigned)gid);
	write_text("/proc/self/gid_map", map);
	CHECK_OK(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
}

/* An overlay at DIR/merged: its lower layer DIR/lower on one tmpfs; its
 * upper layer on the same one (SAMEFS) or on another. */
static void mount_overlay(const char *dir, bool samefs)
{
	char lower[256], upper[256], work[256], merged[256], options[1024];

	CHECK_OK(mount("tmpfs", dir, "tmpfs", 0, "mode=0755"));
	snprintf(lower, sizeof(lower), "%s/lower", dir);
	snprintf(merged, sizeof(merged), "%s/merged", dir);
	snprintf(upper, sizeof(upper), "%s/rw", dir);
	CHECK_OK(mkdir(lower, 0755));
	CHECK_OK(mkdir(merged, 0755));
	CHECK_OK(mkdir(upper, 0755));
	if (!samefs)
		CHECK_OK(mount("tmpfs", upper, "tmpfs", 0, "mode=0755"));
	snprintf(work, sizeof(work), "%s/rw/work", dir);
	snprintf(upper, sizeof(upper), "%s/rw/upper", dir);
	CHECK_OK(mkdir(upper, 0755));
	CHECK_OK(mkdir(work, 0755));
	snprintf(lower, sizeof(lower), "%s/lower/updater", dir);
	write_text(lower, "#!/bin/sh\n");
	snprintf(options, sizeof(options), "lowerdir=%s/lower,upperdir=%s,workdir=%s,xino=off",
		 dir, upper, work);
	if (mount("overlay", merged, "overlay", 0, options) < 0)
		SKIP("cannot mount an overlay here: %s", strerror(errno));
}

/* On an overlay a process runs the overlay's inode: the firewall sees the
 * overlay's device (a directory's, which stat() gives for the overlay's
 * own), whatever layer the file is in and whatever stat() gives the file.
 * Where the layers are on different file systems, without xino, stat()
 * gives a layer's device and the inode numbers are the layers' own: the
 * identity may be another layer's file's too, and says so. */
static void an_executable_on_an_overlay_is_known_by_the_overlay(void)
{
	char dir[] = "/tmp/hp-overlay.XXXXXX", path[256];
	struct hid_rule_exe lower_only, copied_up, same_fs;
	struct stat root, file, lower;
	int fd;

	CHECK(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
	enter_own_namespaces();
	mount_overlay(dir, false);

	snprintf(path, sizeof(path), "%s/merged", dir);
	CHECK_OK(stat(path, &root));
	snprintf(path, sizeof(path), "%s/lower/updater", dir);
	CHECK_OK(stat(path, &lower));
	snprintf(path, sizeof(path), "%s/merged/updater", dir);
	CHECK_OK(stat(path, &file));
	CHECK(file.st_dev != root.st_dev, "stat() gives the overlay's device: layers on one file system?");
	/* held open: the overlay keeps this inode across the copy-up */
	fd = open(path, O_PATH | O_CLOEXEC);
	CHECK_OK(fd);

	CHECK_EQ(policy_exe_identity(path, &lower_only), POLICY_EXE_LAYERS_SHARE);
	CHECK_EQ(lower_only.dev, kernel_dev(root.st_dev));
	CHECK_EQ(lower_only.ino, (uint64_t)lower.st_ino);

	/* chmod copies the file up to the upper layer */
	CHECK_OK(chmod(path, 0750));
	snprintf(path, sizeof(path), "%s/rw/upper/updater", dir);
	CHECK_OK(stat(path, &file));
	snprintf(path, sizeof(path), "%s/merged/updater", dir);
	CHECK_EQ(policy_exe_identity(path, &copied_up), POLICY_EXE_LAYERS_SHARE);
	CHECK_EQ(copied_up.dev, lower_only.dev);
	CHECK_EQ(copied_up.ino, lower_only.ino);
	close(fd);

	/* All layers on one file system: stat() and the firewall agree, and
	 * the overlay's inode numbers are unique. */
	snprintf(path, sizeof(path), "%s/same", dir);
	CHECK_OK(mkdir(path, 0755));
	mount_overlay(path, true);
	snprintf(path, sizeof(path), "%s/same/merged", dir);
	CHECK_OK(stat(path, &root));
	snprintf(path, sizeof(path), "%s/same/merged/updater", dir);
	CHECK_OK(stat(path, &file));
	CHECK_EQ(policy_exe_identity(path, &same_fs), 0);
	CHECK_EQ(same_fs.dev, kernel_dev(root.st_dev));
	CHECK_EQ(same_fs.dev, kernel_dev(file.st_dev));
	CHECK_EQ(same_fs.ino, (uint64_t)file.st_ino);
	CHECK_OK(umount2(dir, MNT_DETACH));
	CHECK_OK(rmdir(dir));
}

/* The daemon itself may run from such an overlay: a live system's root,
 * or the package suite's guest, where apt put hid-policyd in the tmpfs
 * layer above the shared Debian root. It knows its executable all the
 * same, so that its HID++ questions pass the guard its rules compile in
 * (policy_compile()) and a receiver's features are learned. Before, it
 * took itself for no program there: its own questions were refused, and
 * with them, the receiver never asked, every HID++ 1.0 register request
 * to the receiver (Solaar's first read: 10 ff 83 b5 03) stayed refused. */
static void the_daemon_run_from_an_overlay_whose_layers_share_inodes_knows_itself(void)
{
	static const char rules[] =
		"{'name': 'no-dfu', 'request': 'output_report', 'report_id': '0x10',"
		" 'hidpp_feature': '0x00D0', 'sender': {'origin': 'user'}, 'action': 'deny'}";
	const uint8_t question[7] = { 0x10, 0xff, 0x00, 0x00, 0x00, 0xd0, 0x00 };
	char dir[] = "/tmp/hp-overlay.XXXXXX", path[256];
	struct policy_device dev = DEVICE;
	struct enforcer en = { .features.epoll_fd = -1, .nrf.epoll_fd = -1 };
	struct hid_rule_exe identity;
	struct hid_device_rules r;
	struct policy_verdict v;
	struct diag d = {};
	struct policy *p;

	CHECK(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
	enter_own_namespaces();
	mount_overlay(dir, false);
	snprintf(path, sizeof(path), "%s/merged/updater", dir);
	CHECK_EQ(policy_exe_identity(path, &identity), POLICY_EXE_LAYERS_SHARE);

	CHECK_EQ(enforce_know_self(&en, path), POLICY_EXE_LAYERS_SHARE);
	CHECK(en.self_exe_known, "the daemon takes itself for no program");
	CHECK(en.features.self_exe == &en.self_exe && en.nrf.self_exe == &en.self_exe,
	      "the learners do not know the daemon's executable");
	CHECK_EQ(en.self_exe.ino, identity.ino);
	CHECK_EQ(en.self_exe.dev, identity.dev);

	/* its question, getFeature(DFU) with software ID 0 as root, passes
	 * the rules of a device that has told nothing yet */
	p = load_rules(rules, &d);
	CHECK(p, "policy rejected");
	dev.learner_exe = &en.self_exe;
	CHECK_EQ(policy_compile(p, &dev, &r, NULL), 0);
	policy_evaluate(&r, &(struct policy_request){
				.kind = HID_RULE_KIND_OUTPUT_REPORT, .report_id = 0x10,
				.data = question, .len = sizeof(question),
				.sender = &(struct policy_sender_id){
					.known = true, .uid = 0, .gid = 0, .exe_known = true,
					.exe_ino = en.self_exe.ino, .exe_dev = en.self_exe.dev } },
			&v);
	CHECK(!v.enforced, "the daemon's own question is refused");
	policy_free(p);
	diag_done(&d);
	CHECK_OK(umount2(dir, MNT_DETACH));
	CHECK_OK(rmdir(dir));
}

static void senders_that_mean_nothing_are_errors(void)
{
	struct diag d = {};

	CHECK(!load_rules("{'name': 'a', 'request': 'set_report', 'report_id': 3,"
			  " 'sender': {'user': 'no-such-user-here'}, 'action': 'deny'}", &d), "accepted");
	CHECK_MESSAGES(&d, "t.json:1:179: devices[0].rules[0].sender.user: no user \"no-such-user-here\" on this system");
	diag_done(&d);

	CHECK(!load_rules("{'name': 'a', 'request': 'input_event', 'report_id': 1,"
			  " 'sender': {'user': 0}, 'action': 'deny'}", &d), "accepted");
	CHECK_MESSAGES(&d, "t.json:1:171: devices[0].rules[0].sender: input events come from the device: no one sends them");
	diag_done(&d);

	CHECK(!load_rules("{'name': 'a', 'request': 'set_report', 'report_id': 3,"
			  " 'sender': {'origin': 'kernel', 'group': 0}, 'action': 'deny'}", &d), "accepted");
	CHECK_MESSAGES(&d, "t.json:1:170: devices[0].rules[0].sender: a driver's own request (origin \"kernel\") has no user, group, executable or unit");
	diag_done(&d);

	CHECK(!load_rules("{'name': 'a', 'request': 'set_report', 'report_id': 3,"
			  " 'sender': {'executable': 'fwupd'}, 'action': 'allow'}", &d), "accepted");
	CHECK_MESSAGES(&d, "t.json:1:185: devices[0].rules[0].sender.executable: expected an absolute path, got \"fwupd\"");
	diag_done(&d);

	CHECK(!load_rules("{'name': 'a', 'request': 'set_report', 'report_id': 3,"
			  " 'sender': {'user': [1, 2, 3, 4, 5]}, 'action': 'allow'}", &d), "accepted");
	CHECK_MESSAGES(&d, "t.json:1:179: devices[0].rules[0].sender.user: expected 1 to 4 values, got 5");
	diag_done(&d);
}

/* A program not installed yet: a warning, and the value matches nobody. */
static void a_missing_executable_is_a_warning(void)
{
	struct diag d = {};
	struct policy *p = load_rules(
		"{'name': 'a', 'request': 'set_report', 'report_id': 3,"
		" 'sender': {'executable': '/nonexistent/fwupd'}, 'action': 'allow'}", &d);

	CHECK(p, "policy rejected");
	CHECK_EQ(d.n_errors, 0);
	CHECK_EQ(d.n_warnings, 1);
	CHECK_EQ(p->rules[0].sender.n_exes, 0);
	policy_free(p);
	diag_done(&d);
}

/* A command line's unit may be the cgroup path /proc/PID/cgroup gives: the
 * same cgroups as the unit's name, and refused where its slices are not
 * the ones their names say. */
static void a_unit_is_named_by_its_cgroup_path_too(void)
{
	static const char *const same[][2] = {
		{ "fwupd.service", "/system.slice/fwupd.service" },
		{ "fwupd.service", "system.slice/fwupd.service" },
		{ "user-1000.slice/session-3.scope", "/user.slice/user-1000.slice/session-3.scope" },
		{ "user-1000.slice/session-3.scope", "user.slice/user-1000.slice/session-3.scope" },
	};
	static const char *const wrong[] = {
		"user.slice/user-1000.slice/user-1001.slice/session-3.scope",	/* out of place */
		"/user-1000.slice/session-3.scope",		/* its parent left out */
		"/fwupd.service",				/* no unit at the root */
		"/system.slice/foo.slice",			/* a slice holds no process */
		"/system.slice//fwupd.service",
	};
	uint64_t a[16], b[16];
	size_t na, nb;
	bool running;
	const char *why;

	for (size_t i = 0; i < ARRAY_SIZE(same); i++) {
		CHECK_OK(policy_unit_cgroups_assumed(same[i][0], a, ARRAY_SIZE(a), &na, &running, &why));
		CHECK_OK(policy_unit_cgroups_assumed(same[i][1], b, ARRAY_SIZE(b), &nb, &running, &why));
		CHECK_EQ(na, nb);
		CHECK(!memcmp(a, b, na * sizeof(a[0])), "%s and %s are not one cgroup", same[i][0],
		      same[i][1]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(wrong); i++)
		CHECK(policy_unit_cgroups_assumed(wrong[i], a, ARRAY_SIZE(a), &na, &running, &why) ==
		      -EINVAL, "%s accepted", wrong[i]);
}

/*
 * Users and groups the same way: a dry run assumes a name this machine has
 * not, with a note (--strict passes) and an id no account has, one per
 * name, that the explanation names; the daemon's load refuses it, as it
 * did.
 */
static void a_dry_run_assumes_a_user_or_group_not_on_this_system(void)
{
	_cleanup_free_ char *dir = make_temp_dir();
	const char *dirs[] = { dir };
	struct diag d = {};
	struct policy *p = NULL;
	_cleanup_free_ char *group_note = NULL, *user_note = NULL;
	uint32_t again = 0;

	write_policy(dir, "30-wheel.json",
		     "{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x1234', 'product': '0x5704'},\n"
		     " 'rules': [{'name': 'wheel', 'request': 'set_report', 'report_id': 3,\n"
		     "  'sender': {'group': 'hp-no-such-group', 'user': ['hp-no-such-user', 0]}, 'action': 'allow'}]}]}");
	CHECK_OK(policy_load_dirs_dry_run(dirs, 1, true, &d, &p));
	CHECK_EQ(d.n_errors, 0);
	CHECK_EQ(d.n_warnings, 0);
	group_note = in_dir(dir, "30-wheel.json:3:23: devices[0].rules[0].sender.group: note: assuming group \"hp-no-such-group\" exists where the policy is used (there is none on this system); a daemon where it does not refuses the policy");
	user_note = in_dir(dir, "30-wheel.json:3:52: devices[0].rules[0].sender.user[0]: note: assuming user \"hp-no-such-user\" exists where the policy is used (there is none on this system); a daemon where it does not refuses the policy");
	CHECK_MESSAGES(&d, group_note, user_note);
	CHECK_EQ(p->rules[0].sender.gids[0], POLICY_ASSUMED_ID_BASE);
	CHECK_EQ(p->rules[0].sender.uids[0], POLICY_ASSUMED_ID_BASE);
	CHECK_EQ(p->rules[0].sender.uids[1], 0);
	CHECK(!strcmp(policy_assumed_name(p, POLICY_ASSUMED_ID_BASE, true) ?: "", "hp-no-such-group"),
	      "the group's name is not kept");
	CHECK(!strcmp(policy_assumed_name(p, POLICY_ASSUMED_ID_BASE, false) ?: "", "hp-no-such-user"),
	      "the user's name is not kept");
	/* the question's name is the rule's */
	CHECK_OK(policy_assume_id(p, "hp-no-such-user", false, &again));
	CHECK_EQ(again, POLICY_ASSUMED_ID_BASE);
	CHECK_OK(policy_assume_id(p, "hp-another-user", false, &again));
	CHECK_EQ(again, POLICY_ASSUMED_ID_BASE + 1);
	policy_free(p);
	diag_done(&d);

	p = NULL;
	CHECK(policy_load_dirs(dirs, 1, true, &d, &p) < 0, "the daemon's load accepted it");
	CHECK(diag_contains(&d, "sender.group: no group \"hp-no-such-group\" on this system"), "no error");
	diag_done(&d);
	rm_tree(dir);
}

/*
 * A dry run (hid-policyd --check, --explain) may be about another machine:
 * a program not installed here and a unit not running here are assumed to
 * be there, each with an identity no real file or cgroup has, and for the
 * program a note (not a warning: --strict passes) says so; the firewall's
 * evaluation then decides as it would where they are. The daemon's load of the same file
 * keeps the warning and matches nobody.
 */
static void a_dry_run_assumes_what_a_sender_names_is_there(void)
{
	_cleanup_free_ char *dir = make_temp_dir();
	const char *dirs[] = { dir };
	const char *why = NULL;
	struct hid_device_rules r;
	struct hid_rule_exe fwupd, tool;
	uint64_t ids[16], other_ids[16];
	size_t n = 0, n_other = 0;
	bool running = true;
	struct diag d = {};
	struct policy *p = NULL;

	write_policy(dir, "40-fwupd.json",
		     "{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x1234', 'product': '0x5704'},"
		     " 'rules': [{'name': 'exe', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3,"
		     " 'sender': {'executable': '/nonexistent/fwupd'}, 'action': 'allow'},"
		     " {'name': 'unit', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3,"
		     " 'sender': {'unit': 'hpnothere.slice/fwupd.service'}, 'action': 'allow'},"
		     " {'name': 'rest', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3,"
		     " 'action': 'deny'}]}]}");
	CHECK_OK(policy_load_dirs_dry_run(dirs, 1, true, &d, &p));
	CHECK_EQ(d.n_errors, 0);
	CHECK_EQ(d.n_warnings, 0);
	CHECK_EQ(d.n_notes, 1);
	CHECK(diag_contains(&d, "40-fwupd.json:1:213: devices[0].rules[0].sender.executable: note: assuming /nonexistent/fwupd is installed where the policy is used (not installed here); where it is not, the rule matches no process"),
	      "%s", d.n ? d.entries[0].text : "no message");

	/* the same path is the same file, another path another */
	policy_assumed_exe("/nonexistent/fwupd", &fwupd);
	policy_assumed_exe("/nonexistent/fwupdtool", &tool);
	CHECK(policy_exe_is_assumed(&fwupd), "device 0");
	CHECK_EQ(p->rules[0].sender.n_exes, 1);
	CHECK_EQ(p->rules[0].sender.exes[0].ino, fwupd.ino);
	CHECK_EQ(p->rules[0].sender.exes[0].dev, 0);
	CHECK(tool.ino != fwupd.ino, "two paths, one identity");
	CHECK(p->units[0].assumed, "the unit is assumed to run");
	CHECK(p->units[0].cgroup_id >> 63, "an assumed cgroup id has its top bit set");

	/* a process in the unit, as the question assumes it, and in another */
	CHECK_OK(policy_unit_cgroups_assumed("hpnothere.slice/fwupd.service", ids, ARRAY_SIZE(ids),
					     &n, &running, &why));
	CHECK(!running, "not running here");
	CHECK_EQ(n, 3);
	CHECK_EQ(ids[2], p->units[0].cgroup_id);
	CHECK_OK(policy_unit_cgroups_assumed("hpnothere.slice/other.service", other_ids,
					     ARRAY_SIZE(other_ids), &n_other, &running, &why));
	CHECK_EQ(n_other, 3);
	CHECK_EQ(other_ids[1], ids[1]);	/* one slice, whatever unit is in it */

	CHECK_EQ(policy_compile(p, &DEVICE, &r, NULL), 0);
	{
		const struct policy_sender_id by_fwupd = { .known = true, .exe_known = true,
							   .exe_ino = fwupd.ino, .exe_dev = fwupd.dev };
		const struct policy_sender_id by_tool = { .known = true, .exe_known = true,
							  .exe_ino = tool.ino, .exe_dev = tool.dev };
		const struct policy_sender_id in_unit = { .known = true, .cgroups = ids,
							  .n_cgroups = n };
		const struct policy_sender_id in_other = { .known = true, .cgroups = other_ids,
							   .n_cgroups = n_other };

		CHECK_EQ(decide(&r, 3, &by_fwupd).rule, 0);
		CHECK_EQ(decide(&r, 3, &by_tool).rule, 2);
		CHECK_EQ(decide(&r, 3, &in_unit).rule, 1);
		CHECK_EQ(decide(&r, 3, &in_other).rule, 2);
	}
	policy_free(p);
	diag_done(&d);

	/* the daemon, on this machine: a warning, and the rule matches nobody */
	if (policy_cgroup_root()) {
		CHECK_EQ(policy_load_dirs(dirs, 1, true, &d, &p), 0);
		CHECK_EQ(d.n_warnings, 1);
		CHECK_EQ(d.n_notes, 0);
		CHECK_EQ(p->rules[0].sender.n_exes, 0);
		CHECK_EQ(p->units[0].cgroup_id, 0);
		policy_free(p);
		diag_done(&d);
	}
	rm_tree(dir);
}

/* "any" request of a sender covers what it can send, not input. */
static void any_request_of_a_sender_leaves_input_out(void)
{
	struct diag d = {};
	struct policy *p = load_rules(
		"{'name': 'a', 'request': 'any', 'report_id': 'any',"
		" 'sender': {'user': 1000}, 'action': 'deny'}", &d);

	CHECK(p, "policy rejected");
	CHECK(!(p->rules[0].kinds & HID_RULE_KIND_INPUT_EVENT), "kinds %#x", p->rules[0].kinds);
	CHECK(p->rules[0].kinds & HID_RULE_KIND_OUTPUT_REPORT, "kinds %#x", p->rules[0].kinds);
	policy_free(p);
	diag_done(&d);
}

/* As the firewall decides: groups by primary or supplementary membership;
 * a driver's request has no user; an unknown sender matches deny rules and
 * never allow rules. */
static void evaluation_follows_the_firewall(void)
{
	struct diag d = {};
	struct hid_device_rules r;
	struct policy *p = load_rules(
		"{'name': 'tools', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3,"
		" 'sender': {'group': 4242}, 'action': 'allow'},"
		"{'name': 'not-1000', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3,"
		" 'sender': {'user': 1000}, 'action': 'deny'},"
		"{'name': 'drivers', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3,"
		" 'sender': {'origin': 'kernel'}, 'action': 'allow'},"
		"{'name': 'rest', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3,"
		" 'action': 'deny'}", &d);
	const uint32_t tools[] = { 100, 4242 };
	const struct policy_sender_id member = { .known = true, .uid = 1000, .gid = 1000,
						 .groups = tools, .n_groups = 2 };
	const struct policy_sender_id user = { .known = true, .uid = 1000, .gid = 1000,
					       .groups = tools, .n_groups = 1 };
	const struct policy_sender_id stranger = { .known = true, .uid = 1001, .gid = 1001 };
	const struct policy_sender_id driver = { .from_kernel = true };

	CHECK(p, "policy rejected");
	/* a rule for some senders shadows no later rule */
	CHECK_EQ(d.n, 0);
	CHECK_EQ(policy_compile(p, &DEVICE, &r, NULL), 0);
	CHECK_EQ(decide(&r, 3, &member).rule, 0);
	CHECK_EQ(decide(&r, 3, &user).rule, 1);
	CHECK_EQ(decide(&r, 3, &stranger).rule, 3);
	CHECK_EQ(decide(&r, 3, &driver).rule, 2);
	/* not known: the allow for the group is passed over, the deny for
	 * user 1000 taken */
	CHECK_EQ(decide(&r, 3, NULL).rule, 1);
	policy_free(p);
	diag_done(&d);
}

/* A unit is kept by name and placed in its slice as systemd places it;
 * a unit named twice is one unit of the policy. */
static void a_unit_is_the_cgroup_systemd_gives_it(void)
{
	static const struct {
		const char *name, *path;
		uint32_t level;
	} units[] = {
		{ "fwupd.service", "system.slice/fwupd.service", 2 },
		{ "getty@tty1.service", "system.slice/getty@tty1.service", 2 },
		{ "machine.slice/vm-1.scope", "machine.slice/vm-1.scope", 2 },
		{ "a-b.slice/x.service", "a.slice/a-b.slice/x.service", 3 },
		{ "user-1000.slice", "user.slice/user-1000.slice", 2 },
		{ "system.slice", "system.slice", 1 },
	};
	char rules[2048];
	struct diag d = {};
	struct policy *p;
	size_t n = 0;

	if (!policy_cgroup_root()) {
		SKIP("this machine has no cgroup2 hierarchy");
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		n += (size_t)snprintf(rules + n, sizeof(rules) - n,
				      "%s{'name': 'r%zu', 'request': 'set_report', 'report_id': 3,"
				      " 'sender': {'unit': ['%s', 'fwupd.service']}, 'action': 'allow'}",
				      i ? ", " : "", i, units[i].name);
	p = load_rules(rules, &d);
	CHECK(p, "policy rejected");
	CHECK_EQ(d.n_errors, 0);
	CHECK_EQ(p->n_units, ARRAY_SIZE(units));
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		const struct policy_rule *r = &p->rules[i];

		CHECK_EQ(r->sender.fields, HID_SENDER_F_UNIT);
		CHECK_EQ(r->sender.n_units, 2);
		CHECK(!strcmp(p->units[r->units[0]].name, units[i].name), "name %s",
		      p->units[r->units[0]].name);
		CHECK(!strcmp(p->units[r->units[0]].path, units[i].path), "%s: path %s",
		      units[i].name, p->units[r->units[0]].path);
		CHECK_EQ(p->units[r->units[0]].level, units[i].level);
		/* the second value names the first unit of the policy */
		CHECK_EQ(r->units[1], 0);
	}
	policy_free(p);
	diag_done(&d);
}

/* explain --pid sends the process's cgroup path as /proc/PID/cgroup gives
 * it; the daemon reads the cgroups on that path, so a path that could leave
 * the hierarchy is refused before anything is read. */
static void a_process_cgroup_path_is_checked_before_it_is_read(void)
{
	static const char *const bad[] = {
		"", "system.slice/x.service", "/system.slice/../x", "/./x", "/a//b", "/a/",
		"/..", "//",
	};
	uint64_t ids[8];
	const char *why;
	bool exists;
	size_t n;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		why = NULL;
		CHECK_EQ(policy_cgroup_ancestry(bad[i], ids, ARRAY_SIZE(ids), &n, &exists, &why),
			 -EINVAL);
		CHECK(why && strstr(why, "expected a cgroup path"), "\"%s\": %s", bad[i], why);
		CHECK_EQ(n, 0);
	}
	if (!policy_cgroup_root()) {
		SKIP("this machine has no cgroup2 hierarchy");
		return;
	}
	/* the root alone, and a path below it that does not exist */
	CHECK_OK(policy_cgroup_ancestry("/", ids, ARRAY_SIZE(ids), &n, &exists, &why));
	CHECK_EQ(n, 1);
	CHECK(exists, "the root cgroup exists");
	CHECK_OK(policy_cgroup_ancestry("/hp-no-such.slice/x.service", ids, ARRAY_SIZE(ids), &n,
					&exists, &why));
	CHECK_EQ(n, 1);
	CHECK(!exists, "a cgroup that does not exist");
}

static void units_systemd_would_not_have_are_errors(void)
{
	static const struct {
		const char *value, *message;
	} bad[] = {
		{ "fwupd", "only service, scope and slice units have processes of their own" },
		{ "fw upd.service", "expected a unit name such as \"fwupd.service\", or \"SLICE.slice/NAME.service\"" },
		{ "fwupd.socket", "only service, scope and slice units have processes of their own" },
		{ "-.slice", "not a slice name systemd allows (\"-.slice\" would be every process)" },
		{ "a--b.slice", "not a slice name systemd allows (\"-.slice\" would be every process)" },
		{ "x.service/y.service", "expected a unit name such as \"fwupd.service\", or \"SLICE.slice/NAME.service\"" },
		{ "../x.service", "expected a unit name such as \"fwupd.service\", or \"SLICE.slice/NAME.service\"" },
		{ "a.slice/b.slice", "a slice is named alone: its place follows from its name" },
		{ "-a.slice/x.service", "not a slice name systemd allows" },
	};

	if (!policy_cgroup_root()) {
		SKIP("this machine has no cgroup2 hierarchy");
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char rule[512], want[512];
		struct diag d = {};

		snprintf(rule, sizeof(rule),
			 "{'name': 'a', 'request': 'set_report', 'report_id': 3,"
			 " 'sender': {'unit': '%s'}, 'action': 'allow'}", bad[i].value);
		CHECK(!load_rules(rule, &d), "%s accepted", bad[i].value);
		snprintf(want, sizeof(want), "t.json:1:179: devices[0].rules[0].sender.unit: \"%s\": %s",
			 bad[i].value, bad[i].message);
		CHECK_MESSAGES(&d, want);
		diag_done(&d);
	}
}

/* A process is in a unit when the unit's cgroup is its own or an
 * ancestor's, at the unit's depth; a unit that is not running (cgroup 0)
 * holds nobody. */
static void a_unit_holds_the_processes_of_its_cgroup_and_below(void)
{
	struct diag d = {};
	struct hid_device_rules r;
	struct policy *p = load_rules(
		"{'name': 'updater', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3,"
		" 'sender': {'unit': 'fwupd.service'}, 'action': 'allow'},"
		"{'name': 'rest', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3,"
		" 'action': 'deny'}", &d);
	const uint64_t in_unit[] = { 1, 40, 77 }, below[] = { 1, 40, 77, 90 };
	const uint64_t other[] = { 1, 40, 78 }, shallow[] = { 1, 40 }, deep_other[] = { 1, 41, 50, 77 };
	const struct policy_sender_id inside = { .known = true, .cgroups = in_unit, .n_cgroups = 3 };
	const struct policy_sender_id delegated = { .known = true, .cgroups = below, .n_cgroups = 4 };
	const struct policy_sender_id outside = { .known = true, .cgroups = other, .n_cgroups = 3 };
	const struct policy_sender_id above = { .known = true, .cgroups = shallow, .n_cgroups = 2 };
	const struct policy_sender_id elsewhere = { .known = true, .cgroups = deep_other, .n_cgroups = 4 };
	const struct policy_sender_id driver = { .from_kernel = true };

	if (!policy_cgroup_root()) {
		SKIP("this machine has no cgroup2 hierarchy");
		return;
	}
	CHECK(p, "policy rejected");
	CHECK_EQ(p->n_units, 1);
	p->units[0].cgroup_id = 77;	/* as if fwupd.service ran in cgroup 77 */
	CHECK_EQ(policy_compile(p, &DEVICE, &r, NULL), 0);
	CHECK_EQ(r.rules[0].sender.units[0].cgroup_id, 77);
	CHECK_EQ(r.rules[0].sender.units[0].level, 2);
	CHECK_EQ(decide(&r, 3, &inside).rule, 0);
	CHECK_EQ(decide(&r, 3, &delegated).rule, 0);
	CHECK_EQ(decide(&r, 3, &outside).rule, 1);
	CHECK_EQ(decide(&r, 3, &above).rule, 1);
	CHECK_EQ(decide(&r, 3, &elsewhere).rule, 1);
	CHECK_EQ(decide(&r, 3, &driver).rule, 1);
	CHECK_EQ(decide(&r, 3, NULL).rule, 1);
	/* stopped: its old cgroup's processes are gone, and 0 is nobody's */
	p->units[0].cgroup_id = 0;
	CHECK_EQ(policy_compile(p, &DEVICE, &r, NULL), 0);
	CHECK_EQ(decide(&r, 3, &inside).rule, 1);
	policy_free(p);
	diag_done(&d);
}

static const struct test_case tests[] = {
	{ "a_unit_is_the_cgroup_systemd_gives_it", a_unit_is_the_cgroup_systemd_gives_it },
	{ "units_systemd_would_not_have_are_errors", units_systemd_would_not_have_are_errors },
	{ "a_process_cgroup_path_is_checked_before_it_is_read",
	  a_process_cgroup_path_is_checked_before_it_is_read },
	{ "a_unit_holds_the_processes_of_its_cgroup_and_below",
	  a_unit_holds_the_processes_of_its_cgroup_and_below },
	{ "names_resolve_to_ids_and_lists_are_kept", names_resolve_to_ids_and_lists_are_kept },
	{ "an_executable_is_its_device_and_inode", an_executable_is_its_device_and_inode },
	{ "an_executable_on_an_overlay_is_known_by_the_overlay",
	  an_executable_on_an_overlay_is_known_by_the_overlay },
	{ "the_daemon_run_from_an_overlay_whose_layers_share_inodes_knows_itself",
	  the_daemon_run_from_an_overlay_whose_layers_share_inodes_knows_itself },
	{ "senders_that_mean_nothing_are_errors", senders_that_mean_nothing_are_errors },
	{ "a_missing_executable_is_a_warning", a_missing_executable_is_a_warning },
	{ "a_dry_run_assumes_what_a_sender_names_is_there",
	  a_dry_run_assumes_what_a_sender_names_is_there },
	{ "a_unit_is_named_by_its_cgroup_path_too", a_unit_is_named_by_its_cgroup_path_too },
	{ "a_dry_run_assumes_a_user_or_group_not_on_this_system",
	  a_dry_run_assumes_a_user_or_group_not_on_this_system },
	{ "any_request_of_a_sender_leaves_input_out", any_request_of_a_sender_leaves_input_out },
	{ "evaluation_follows_the_firewall", evaluation_follows_the_firewall },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "policy-sender", tests, ARRAY_SIZE(tests));
}
