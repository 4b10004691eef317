// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdbool.h>
#include <sys/prctl.h>
#include <cap-ng.h>

#include "worker_privileges.h"

int worker_drop_privileges(void)
{
	bool setpcap;

	if (capng_get_caps_process() < 0)
		return -EPERM;
	setpcap = capng_have_capability(CAPNG_EFFECTIVE, CAP_SETPCAP);
	capng_clear(CAPNG_SELECT_BOTH);
	/* Bounding set first: dropping it needs CAP_SETPCAP, which the
	 * second call gives up. Without it (an unprivileged caller) the
	 * bounding set stays, with nothing left to raise from it. */
	if (setpcap && capng_apply(CAPNG_SELECT_BOUNDS) < 0)
		return -EPERM;
	if (capng_apply(CAPNG_SELECT_CAPS) < 0)
		return -EPERM;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -errno;
	return 0;
}
