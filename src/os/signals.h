/* signals.h — SIGINT, SIGTERM and SIGHUP held back while the files a
 * command has written are swapped into place: an interrupt then comes
 * before all of them or after, and changes none of them halfway. */
#ifndef VB_SIGNALS_H
#define VB_SIGNALS_H

#include <signal.h>

/* Hold the stop signals back; *old is the mask to restore with
 * sigprocmask(SIG_SETMASK, old, NULL). */
void vb_hold_stop_signals(sigset_t *old);

#endif
