/* The DCI requests and who answers them: a table from message type to handler (dispatch.c).
 * client.c hands every frame to dispatch_frame through its hooks; the handlers answer through
 * client.h's sending functions. */
#ifndef KOV_DCID_DISPATCH_H
#define KOV_DCID_DISPATCH_H

#include "client.h"

/* Answers one frame of c's (checked against c's role and, but for HELLO, validated). */
typedef void request_handler(struct client *c, const struct proto_frame *f);

/* Checks a frame from c (the role rules, then its payload), and has its handler answer it,
 * or answers an ERROR. */
void dispatch_frame(struct client *c, const struct proto_frame *f);

/* ---- the handlers: session, scans and symbols (answers.c) ------------------------------ */
request_handler answer_hello;       /* checks its own payload: refusals are SERVER_HELLOs */
request_handler answer_ping;
request_handler answer_status;
request_handler answer_wakeups;
request_handler answer_claim;
request_handler answer_scan;
request_handler answer_lookup;
request_handler answer_table;
request_handler answer_catalogue;

/* ---- the handlers: monitoring (control.c) ------------------------------------------------ */
request_handler monitor_pmu_config;
request_handler monitor_config_get;
request_handler monitor_start;
request_handler monitor_stop;
request_handler monitor_instrument;
/* ---- hot swaps (swap.c) ---- */
request_handler monitor_swap;
/* ---- the monitor's cost bound (throttle.c) ---- */
request_handler answer_throttle_get;
request_handler monitor_throttle_set;
/* ---- power-off and restart (power.c) ---- */
request_handler answer_power;
/* ---- the platform's self-report (platform.c) ---- */
request_handler answer_platform;

#endif
