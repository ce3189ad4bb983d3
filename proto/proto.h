/* The KOV wire protocol between the DCI daemon and host clients: framing, message types,
 * error codes, the streaming frame reader and the role rules. docs/protocol.md is the
 * specification; this header is its C binding, shared by the target and the host.
 *
 * The codec allocates nothing. Encoders write into a caller's buffer and return the frame's
 * size or a negative error (-PROTO_E_*). Decoders validate a whole frame before they return
 * and never read outside it; what they return borrows from the frame (strings and nested
 * lists point into it), so the frame's bytes must stay put while the result is used.
 *
 * The message structures and their encoders and decoders are in proto/proto_msg.h, which this
 * header includes. */
#ifndef KOV_PROTO_H
#define KOV_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROTO_MAGIC 0x4B4F5650u          /* "KOVP" */
#define PROTO_MAJOR 1
#define PROTO_MINOR 8

/* The TCP ports the DCI daemon listens on unless told otherwise (dcid port=N metrics=N):
 * the wire protocol, and its OpenMetrics (Prometheus) exposition over HTTP. */
#define PROTO_DEFAULT_PORT 7242
#define PROTO_METRICS_DEFAULT_PORT 9242

/* A frame: u32 length (of everything after it), u16 type, u16 flags, u32 request id, payload. */
#define PROTO_HEADER_SIZE 12
#define PROTO_MAX_FRAME 65536u           /* whole frame, length field included */
#define PROTO_MAX_PAYLOAD (PROTO_MAX_FRAME - PROTO_HEADER_SIZE)

/* Header flags. The others are sent as zero and ignored on receipt. */
#define PROTO_F_OPTIONAL 0x0001u         /* a receiver that does not know the type ignores it */
#define PROTO_F_MORE 0x0002u             /* more frames of this answer follow */
#define PROTO_F_NO_DATA 0x0004u          /* on HELLO (1.7): this connection takes answers and
                                          * events only, none of the pushed data streams */

enum proto_type {
	/* session */
	PROTO_HELLO = 0x0001,
	PROTO_SERVER_HELLO = 0x0002,
	PROTO_ERROR = 0x0003,
	PROTO_OK = 0x0004,
	PROTO_PING = 0x0005,
	PROTO_PONG = 0x0006,
	PROTO_CLAIM_CONTROL = 0x0007,
	PROTO_STATUS_GET = 0x0008,
	PROTO_STATUS = 0x0009,
	PROTO_DROPPED = 0x000A,
	PROTO_STATUS_EX = 0x000B,         /* since 1.3 */
	PROTO_SERVER_HELLO_EX = 0x000C,   /* since 1.5 */
	PROTO_WAKEUPS_GET = 0x000D,       /* since 1.5 */
	PROTO_WAKEUPS = 0x000E,           /* since 1.5 */
	PROTO_THROTTLE_GET = 0x000F,      /* since 1.7 */
	PROTO_POWER_OFF = 0x0010,         /* since 1.8 */
	PROTO_REBOOT = 0x0011,            /* since 1.8 */
	PROTO_PLATFORM_GET = 0x0012,      /* since 1.8 */
	PROTO_PLATFORM = 0x0013,          /* since 1.8 */
	/* scan and symbols */
	PROTO_SCAN_REQUEST = 0x0101,
	PROTO_SCAN_PROCESSES = 0x0102,
	PROTO_SCAN_OBJECTS = 0x0103,
	PROTO_SYMBOL_LOOKUP = 0x0111,
	PROTO_SYMBOL_TABLE_GET = 0x0112,
	PROTO_SYMBOLS = 0x0113,
	/* monitor configuration and control */
	PROTO_CATALOGUE_GET = 0x0201,
	PROTO_EVENT_CATALOGUE = 0x0202,
	PROTO_PMU_CONFIG = 0x0203,
	PROTO_CONFIG_GET = 0x0204,
	PROTO_START = 0x0205,
	PROTO_STOP = 0x0206,
	PROTO_INSTRUMENT = 0x0207,       /* since 1.1 */
	PROTO_SWAP = 0x0208,             /* since 1.6 */
	PROTO_THROTTLE_SET = 0x0209,     /* since 1.7 */
	/* pushed monitoring data */
	PROTO_SAMPLES = 0x0301,
	PROTO_INTERVAL_COUNTS = 0x0302,
	PROTO_LOCK_STATS = 0x0303,
	PROTO_INVOCATIONS = 0x0304,
	PROTO_LOST_SAMPLES = 0x0305,
	PROTO_LOCK_CONTENTION = 0x0306,   /* since 1.2 */
	PROTO_CHAINS = 0x0307,            /* since 1.4 */
	PROTO_SAMPLES_CHAINED = 0x0308,   /* since 1.4 */
	PROTO_SWAPPED = 0x0309,           /* since 1.6 */
	PROTO_THROTTLE = 0x030A,          /* since 1.7 */
	PROTO_SAMPLES_PACKED = 0x030B,    /* since 1.8 */
};

/* Error codes: positive on the wire (ERROR.code, SERVER_HELLO.status), negated as return
 * values of the codec's functions. */
enum proto_error {
	PROTO_E_TRUNCATED = 1,       /* the frame ends inside a field */
	PROTO_E_TOO_BIG = 2,         /* a frame above PROTO_MAX_FRAME (or the reader's buffer) */
	PROTO_E_LENGTH = 3,          /* a length prefix below the 8 bytes of type, flags, id */
	PROTO_E_UNKNOWN_TYPE = 4,    /* a type this side does not know, not marked optional */
	PROTO_E_TRAILING = 5,        /* bytes after the last field */
	PROTO_E_COUNT = 6,           /* a count above its limit or beyond the rest of the frame */
	PROTO_E_STRING = 7,          /* past the frame, a NUL inside, or outside its length limits */
	PROTO_E_INCONSISTENT = 8,    /* fields that contradict each other or an unknown value */
	PROTO_E_BAD_MAGIC = 9,
	PROTO_E_VERSION = 10,        /* major versions differ */
	PROTO_E_DENIED = 11,         /* wrong controller token */
	PROTO_E_NOT_CONTROLLER = 12, /* an observer sent what only the controller may */
	PROTO_E_UNEXPECTED = 13,     /* wrong direction, wrong moment, or request id 0 */
	PROTO_E_BUSY = 14,           /* another client is the controller */
	PROTO_E_CONFIG = 15,         /* the target cannot apply this configuration */
	PROTO_E_NOT_FOUND = 16,      /* no such process */
	PROTO_E_UNAVAILABLE = 17,    /* not available on this target */
	PROTO_E_OVERLOAD = 18,       /* the server is at its limit of clients */
	PROTO_E_INTERNAL = 19,
	PROTO_E_NOSPACE = 20,        /* local: the caller's buffer is too small */
	PROTO_E_INVALID = 21,        /* local: a call that makes no sense (wrong frame type...) */
};
#define PROTO_E_MAX 21

/* Text for an error code (either sign); "unknown error" for codes this version lacks. */
const char *proto_strerror(int code);
/* Whether the sender of an ERROR with this code closes the connection after it. */
bool proto_error_fatal(int code);

/* A received frame. payload points into the caller's bytes. */
struct proto_frame {
	uint16_t type;
	uint16_t flags;
	uint32_t req;
	const uint8_t *payload;
	uint32_t size;               /* payload bytes */
};

/* Parses the frame at the start of buf (len bytes, possibly followed by more frames).
 * Returns the frame's whole size, or -PROTO_E_TRUNCATED / _LENGTH / _TOO_BIG. */
int proto_frame_parse(const void *buf, size_t len, struct proto_frame *f);

/* Sets the header flags of an encoded frame (e.g. PROTO_F_MORE once the next chunk exists). */
void proto_frame_set_flags(void *frame, uint16_t flags);

/* Streaming reader: bytes in as TCP delivers them, whole frames out. The caller's buffer
 * holds one frame; frames larger than it (or than PROTO_MAX_FRAME) are refused as soon as
 * their length prefix has arrived, before any payload is buffered. Fields are private. */
struct proto_reader {
	uint8_t *buf;
	size_t cap;
	size_t have;
	size_t want;
	int err;
	bool ready;
};

void proto_reader_init(struct proto_reader *r, void *buf, size_t cap);
/* Takes bytes from *data (advancing *data and *n) until a frame is complete. Returns 1 with
 * *f set (valid until the next call), 0 when the input is used up, or a negative error that
 * every later call returns too: the stream cannot be resynchronised. Loop while it returns 1. */
int proto_reader_feed(struct proto_reader *r, const uint8_t **data, size_t *n,
                      struct proto_frame *f);
/* Bytes of an unfinished frame: non-zero at end of stream means it was cut off. */
size_t proto_reader_pending(const struct proto_reader *r);

/* Roles and the sides of a connection. */
enum proto_role { PROTO_ROLE_NONE, PROTO_ROLE_OBSERVER, PROTO_ROLE_CONTROLLER };
enum proto_side { PROTO_SIDE_CLIENT, PROTO_SIDE_SERVER };

#define PROTO_FROM_CLIENT 0x01u
#define PROTO_FROM_SERVER 0x02u
#define PROTO_TA_CONTROLLER 0x01u        /* from a client: only the controller may send it */
#define PROTO_TA_DROPPABLE 0x02u         /* pushed data a full queue may drop (counted) */

struct proto_type_info {
	uint16_t type;
	const char *name;                /* "SAMPLES" */
	uint8_t from;                    /* PROTO_FROM_* */
	uint8_t attrs;                   /* PROTO_TA_* */
	uint16_t minor;                  /* the minor version that introduced it */
};

/* NULL for a type this version does not know. */
const struct proto_type_info *proto_type_info(uint16_t type);
const char *proto_type_name(uint16_t type);  /* "?" when unknown */
bool proto_requires_controller(uint16_t type);
bool proto_droppable(uint16_t type);

#define PROTO_IGNORE 1
/* The protocol's rules for a frame arriving at `receiver` on a connection whose peer holds
 * `role` (PROTO_ROLE_NONE until the handshake is done). Returns 0 to handle it, PROTO_IGNORE
 * for an unknown type marked optional, or -PROTO_E_UNKNOWN_TYPE, -PROTO_E_UNEXPECTED,
 * -PROTO_E_NOT_CONTROLLER. Only the last is not fatal. On the client side `role` is the one
 * the server granted. */
int proto_check_incoming(const struct proto_frame *f, enum proto_side receiver,
                         enum proto_role role);

/* Full validation of a frame of any known type: what the type's decoder accepts, every record
 * of a list included. -PROTO_E_UNKNOWN_TYPE for other types. */
int proto_validate(const struct proto_frame *f);

#include "proto_msg.h"

#endif
