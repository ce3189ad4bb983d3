/* Recordings of a target's protocol stream (kovctl record, kov-viewer --record), read back by
 * kovctl replay and kov-viewer --replay. File: the 8 bytes "KOVREC\0\1", then one record per
 * frame: u64 nanoseconds since the recording began, u32 the frame's length, the frame as it
 * came over the wire (big-endian, like the protocol). Recordings begin with the target's
 * description (a SERVER_HELLO or SERVER_HELLO_EX: older ones lack it) and its catalogue. */
#ifndef KOV_CLIENT_RECORDING_H
#define KOV_CLIENT_RECORDING_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "client/client.h"

/* Writes the file's magic; false on a write error. */
bool kov_rec_begin(FILE *f);
/* Appends one frame received `ns` after the start; false on a write error. */
bool kov_rec_write(FILE *f, uint64_t ns, const struct proto_frame *fr);

/* The target's description as a SERVER_HELLO frame (SERVER_HELLO_EX from a 1.5 target; request
 * id 1, as in the handshake), so a replay knows its CPUs and how they ran, timebase, PMU and
 * model; false on an encoding or write error. */
bool kov_rec_write_target(FILE *f, uint64_t ns, const struct kov_target *t);
/* A recorded SERVER_HELLO or SERVER_HELLO_EX back into a description; false for another frame
 * or a refusal. */
bool kov_rec_read_target(const struct proto_frame *fr, struct kov_target *t);

/* Checks the magic: false when the file is not a recording. */
bool kov_rec_open(FILE *f);
/* The next frame: 1 with *fr (free with kov_frame_free) and *ns, 0 at the end, -1 when the
 * record is cut short or its frame does not validate. */
int kov_rec_next(FILE *f, struct kov_frame *fr, uint64_t *ns);

#endif
