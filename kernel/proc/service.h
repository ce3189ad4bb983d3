/* Services the kernel keeps running: a program started at boot that is started again when it
 * ends, whether it exited, crashed or was killed (the DCI daemon). */
#ifndef KOV_SERVICE_H
#define KOV_SERVICE_H

/* Starts `program` with `args` now (privileged, parent 0) and, from a kernel thread, reaps and
 * restarts it each time it ends: after 1 s, and at most SERVICE_RESTARTS times in a minute, after
 * which it is left down with a message. Returns the first pid or -errno. */
#define SERVICE_RESTARTS 5
long service_keep(const char *program, const char *args);

#endif
