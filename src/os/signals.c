/* signals.c — the stop signals held back while files are swapped into
 * place. */
#include "signals.h"

void vb_hold_stop_signals(sigset_t *old)
{
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGHUP);
    sigprocmask(SIG_BLOCK, &stop, old);
}
