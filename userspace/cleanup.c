// SPDX-License-Identifier: GPL-2.0
/*
 * rcupoll: undo what a run set up, on every way out.  record and flight
 * create a tracefs instance that traces until it is removed, and
 * temporary files next to their output; a run that ends early (an error,
 * Ctrl-C while setting up, the terminal closing on an armed flight
 * recorder) must leave neither behind.  Actions are pushed as the run
 * sets things up and run newest first from exit() (atexit) or from a
 * fatal signal.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rcupoll.h"

#define MAX_CLEANUP 16

static struct {
	cleanup_fn fn;
	void *arg;
} actions[MAX_CLEANUP];
static int nactions;
static bool registered;

volatile sig_atomic_t signal_stop;
static volatile sig_atomic_t recording;
static volatile sig_atomic_t aborting;

void cleanup_run_all(void)
{
	while (nactions > 0) {
		nactions--;
		if (actions[nactions].fn)
			actions[nactions].fn(actions[nactions].arg);
	}
}

int cleanup_push(cleanup_fn fn, void *arg)
{
	if (!registered) {
		atexit(cleanup_run_all);
		registered = true;
	}
	if (nactions == MAX_CLEANUP)
		die("internal error: too many clean-up actions");
	actions[nactions].fn = fn;
	actions[nactions].arg = arg;
	return nactions++;
}

/* Forget action @h (done by hand, or no longer needed), running it if @run. */
void cleanup_pop(int h, bool run)
{
	cleanup_fn fn;

	if (h < 0 || h >= nactions || !actions[h].fn)
		return;
	fn = actions[h].fn;
	actions[h].fn = NULL;
	while (nactions > 0 && !actions[nactions - 1].fn)
		nactions--;
	if (run)
		fn(actions[h].arg);
}

/*
 * While recording, a signal asks the recording to stop (the file is
 * still written, as with trace-cmd).  Otherwise it is noted and the code
 * aborts at its next check_interrupted(); a blocking system call returns
 * EINTR (no SA_RESTART) so that check comes soon.
 */
static void on_signal(int sig)
{
	signal_stop = sig;
	if (!recording)
		aborting = sig;
}

void signals_install(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

void signals_set_recording(bool on)
{
	recording = on;
	if (!on && signal_stop && !aborting)
		signal_stop = 0;	/* that signal stopped the recording: done */
}

void check_interrupted(void)
{
	if (aborting) {
		int sig = aborting;

		warn("interrupted by signal %d (%s): cleaned up, no output written", sig,
		     strsignal(sig));
		exit(EXIT_RUNTIME);
	}
}
