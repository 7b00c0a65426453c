/*
 * scheduler.h: agx-scheduler (docs/scheduler.md): its clients and what
 * they own (queues, syncobj handles, the fence page, exported points), the
 * jobs they submit, and the links to agx-fwchan and agx-memmgr that run
 * them.  Everything lives on the daemon's one libevent thread.
 *
 *   scheduler.c its life: set-up, the end of each loop turn, shutdown
 *   client.c    clients, handles, the fence page
 *   job.c       submissions: checks, dependencies, completion in queue order
 *   dispatch.c  the GPU side: fairness, batches to fwchan, VM slots, events
 *   export.c    timeline points as file descriptors
 *   metrics.c   what /metrics says
 *   server.c    the socket
 */
#ifndef SCHEDULER_SCHEDULER_H
#define SCHEDULER_SCHEDULER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "agxipc/fence_page.h"
#include "agxipc/ipc.h"
#include "list.h"
#include "prom.h"
#include "syncobj.h"

struct agx_daemon;
struct agx_ipc_conn;
struct agx_ipc_request;
struct agx_ipc_server;
struct event;
struct event_base;
struct metrics_http;

#define SCHED_PRIORITIES 4 /* agx.work.Priority: low, normal, high, realtime */
#define SCHED_PIPES	 2 /* what the firmware runs in order apart: compute, render */

/*
 * Limits (docs/scheduler.md, "Limits").  "Per process" counts every
 * connection of one client process (its SO_PEERCRED pid) together, so
 * that more connections do not buy a process more.
 */
#define SCHED_MAX_QUEUES      4096 /* per process: a queue each GL context that drew */
#define SCHED_MAX_JOBS	      4096 /* unfinished jobs per process */
#define SCHED_MAX_COMMANDS    64   /* per submission */
#define SCHED_MAX_POINTS      64   /* waits, signals per submission; points per wait */
#define SCHED_MAX_EXPORTS     1024 /* live exported points per process */
#define SCHED_MAX_CONNS	      128  /* connections per process, of the socket's 1,024 */
#define SCHED_FW_ITEMS	      512  /* items at fwchan at once, all clients */
#define SCHED_FW_ITEMS_CLIENT 128  /* items at fwchan at once, one process */
#define SCHED_BATCH_ITEMS     64   /* items in one FWCHAN_SUBMIT */
#define SCHED_REPORT_DELAY_US 1000 /* completions reach memmgr at most this late */
#define SCHED_JOIN_WINDOW_US  5000 /* a seqno takes batches for this long after its bind */
#define SCHED_RETRY_US	      2000 /* a queue memmgr or fwchan had no room for tries again */
/*
 * fwchan had no context for a queue (its firmware memory or its table is
 * full): the contexts of idle queues go -- of the client that holds the
 * most, never a client's last, least recently used first -- and
 * the queue tries again after a back-off that doubles from the first to
 * the second delay; after SCHED_CTX_WAIT_MS of refusals its ready jobs
 * fail with fwchan's error (-ENOMEM, -ENOSPC).
 */
#define SCHED_CTX_BACKOFF_MIN_MS 2
#define SCHED_CTX_BACKOFF_MAX_MS 250
#define SCHED_CTX_WAIT_MS	 5000
#define SCHED_CTX_EVICT		 8 /* idle contexts destroyed per refusal, at most */

struct sched_config {
	const char *socket;
	const char *fwchan;	 /* agx-fwchan's socket */
	const char *memmgr;	 /* agx-memmgr's privileged socket */
	const char *metrics;	 /* unix:PATH or HOST:PORT; NULL: none */
	unsigned job_timeout_ms; /* GPU time of one command; 0: the device's limit */
	long realtime_gid;	 /* this group may use PRIORITY_REALTIME (root always); -1: none */
};

/* A client's VM as memmgr knows it: (pid, vm), with the seqnos of its batches. */
struct sched_vm {
	struct sched_link link; /* scheduler.vms */
	pid_t pid;
	uint32_t vm;
	unsigned refs;		   /* queues and batches */
	uint64_t bound;		   /* the last seqno bound (VM_SLOT_BIND) */
	uint64_t completed;	   /* JOBS_COMPLETED said up to here */
	uint64_t reported;	   /* ... and memmgr was told up to here */
	double bound_s;		   /* when the last seqno was bound */
	uint32_t slot;		   /* its context slot, from the last bind */
	bool slot_valid;	   /* ... which holds while memmgr sees the VM busy */
	struct sched_link batches; /* struct sched_batch in seqno order, not yet done */
};

struct sched_job;
struct sched_queue;

/* One FWCHAN_SUBMIT: items of one queue, under one seqno of its VM. */
struct sched_batch {
	struct sched_link link; /* vm.batches */
	struct sched_queue *queue;
	uint64_t seqno;
	unsigned items; /* not completed yet */
	unsigned jobs;	/* jobs it holds commands of */
	/* where the queue's send cursor was, to send again what fwchan refused */
	struct sched_job *first_job;
	unsigned first_cmd;
	uint64_t *item_ids; /* until fwchan accepted them */
	unsigned num_items;
	bool sent, done;
};

/* A command in flight at fwchan, found again by its job id. */
struct sched_item {
	struct sched_job *job;
	struct sched_batch *batch;
	uint32_t gen;
	unsigned pipe;
	bool used;
	bool faulted; /* a FaultEvent named it */
};

struct sched_cmd {
	unsigned pipe;
	bool render;
	union {
		Agx__Work__Compute compute;
		Agx__Work__Render render;
	} u;
};

struct sched_job_wait {
	struct sched_wait w;
	struct sched_job *job;
};

struct sched_signal {
	struct sched_syncobj *obj;
	uint64_t value;
};

struct sched_job {
	struct sched_link link; /* queue.jobs, in submission order */
	struct sched_queue *queue;
	uint64_t seqno;
	int status;	       /* the first failure: its dependency's, its command's */
	unsigned waits_left;   /* dependencies not reached */
	unsigned sent;	       /* commands handed to fwchan */
	unsigned done;	       /* commands completed */
	bool failed_deps;      /* a dependency failed: nothing runs */
	double submitted_s;    /* host CLOCK_MONOTONIC, for the latency histograms */
	uint64_t gpu_start_ns; /* first command's start (device timer) */
	uint64_t gpu_end_ns;
	unsigned num_waits, num_signals, num_cmds;
	struct sched_job_wait *waits;
	struct sched_signal *signals;
	struct sched_cmd cmds[];
};

enum sched_queue_status {
	SCHED_QUEUE_OK = 0,
	SCHED_QUEUE_GUILTY = 1,
	SCHED_QUEUE_INNOCENT = 2,
};

struct sched_client;

struct sched_queue {
	struct sched_link client_link; /* client.queues; gone when the queue is destroyed */
	struct sched_link run_link;    /* client.runnable[priority] */
	struct sched_link all_link;    /* scheduler.queues, while it lives */
	struct sched_client *client;
	uint32_t id;
	unsigned priority;
	struct sched_vm *vm;
	enum sched_queue_status status;
	bool destroyed;	  /* by its client, or with it: goes once nothing is in flight */
	bool busy;	  /* a bind, context creation or submission is outstanding */
	bool solo;	  /* fwchan refused a batch: one job a batch until it is past */
	bool has_context; /* fwchan's context exists */
	bool ctx_destroying;
	bool held; /* memmgr had no slot, or fwchan no room: again after a completion */
	bool buried;
	bool ctx_waiting;	 /* fwchan had no context for it: until ctx_timer */
	unsigned ctx_refusals;	 /* in a row, for want of room */
	double ctx_refused_s;	 /* when the first of them came */
	double last_used_s;	 /* a batch last went to fwchan: idle contexts go oldest first */
	struct event *ctx_timer; /* the back-off */
	unsigned reserved;	 /* items at fwchan taken for the batch on its way */
	uint32_t context, slot;
	uint64_t next_seqno;
	uint64_t reset_seqno;		/* the job that reset it */
	uint64_t tvb_wanted;		/* the largest TVB heap its client was told of */
	struct sched_link jobs;		/* unfinished, in submission order */
	struct sched_job *cursor;	/* the first job with commands to send; NULL: none */
	unsigned inflight[SCHED_PIPES]; /* commands at fwchan, by pipe */
	unsigned inflight_total;
};

struct sched_export;

/* A client's name for a timeline; its number minus one is its fence page slot. */
struct sched_handle {
	struct sched_client *client;
	struct sched_syncobj *obj;
	uint32_t slot;
};

/* What all connections of one client process hold together, counted against the limits. */
struct sched_process {
	struct sched_link link; /* scheduler.processes */
	pid_t pid;
	unsigned connections; /* its clients not yet freed */
	unsigned jobs, queue_objs, exports, fw_items, reserved;
};

struct sched_client {
	struct sched_link link; /* scheduler.clients */
	struct scheduler *s;
	struct sched_process *proc;
	struct agx_ipc_conn *conn;
	pid_t pid;
	uid_t uid;
	gid_t gid;
	char name[AGX_IPC_MAX_NAME + 1];
	struct sched_link queues;
	struct sched_link waits;		      /* its SYNCOBJ_WAITs in progress */
	struct sched_link runnable[SCHED_PRIORITIES]; /* its queues with work to send */
	struct sched_link run_link[SCHED_PRIORITIES]; /* scheduler.runnable[priority] */
	uint32_t next_queue_id;
	struct sched_handle *handles[AGX_FENCE_PAGE_SLOTS]; /* [handle - 1]; NULL: free */
	unsigned num_handles;				    /* the highest in use */
	/* the fence page */
	int page_fd, event_fd;
	void *page;
	bool page_dirty;
	struct sched_link dirty_link; /* scheduler.dirty */
	/* accounting */
	unsigned jobs;	     /* unfinished */
	unsigned fw_items;   /* at fwchan */
	unsigned reserved;   /* ... and on their way */
	unsigned queue_objs; /* queues not yet freed, destroyed ones too */
	unsigned contexts;   /* its queues' contexts at fwchan */
	unsigned exports;
	uint64_t jobs_done, faults, timeouts;
	uint64_t gpu_ns;
	bool gone;
};

struct sched_histograms {
	struct prom_histogram submit_to_start, start_to_complete;
};

struct scheduler {
	struct sched_config config;
	struct agx_daemon *daemon;
	struct event_base *base;
	struct agx_ipc_server *server;
	struct metrics_http *http;
	struct agx_ipc_conn *fwchan, *memmgr;
	bool fw_ready; /* false while the firmware recovers */
	bool quitting;
	struct sched_link clients;
	struct sched_link processes;
	struct sched_link queues;
	struct sched_link vms;
	struct sched_link runnable[SCHED_PRIORITIES]; /* clients with work to send */
	struct sched_link dirty;		      /* clients whose fence page moved */
	struct event *turn;			      /* end of a loop turn: dispatch, wake */
	bool turn_pending;
	struct sched_item *items; /* SCHED_FW_ITEMS slots */
	unsigned *free_items, num_free_items;
	unsigned fw_items, reserved;
	struct event *report_timer; /* memmgr hears of completions */
	struct event *retry_timer;  /* held queues try again */
	bool report_pending;
	unsigned held_queues;	     /* queues waiting for room at memmgr or fwchan */
	struct sched_link graveyard; /* queues and clients freed at the turn's end */
	struct sched_link dead_clients;
	bool failed;
	struct sched_link exports;
	double started_s;
	/* metrics */
	unsigned num_clients;
	uint64_t queue_depth[SCHED_PRIORITIES];
	uint64_t jobs_done, faults, timeouts;
	uint64_t tvb_overflows; /* renders whose TVB heap was too small: -ENOSPC, no reset */
	uint64_t job_waits;	/* wait points of the jobs submitted */
	uint64_t resets[3];	/* by enum sched_queue_status */
	struct sched_histograms hist;
};

double sched_now_s(void);

/* Its state, and the links to fwchan and memmgr (scheduler.c); no socket yet. */
int scheduler_init(struct scheduler *s, struct event_base *base, const struct sched_config *config);
void scheduler_fini(struct scheduler *s);
/* The daemon: init, metrics, the socket, READY; and its end. */
int scheduler_start(struct scheduler *s, struct agx_daemon *daemon,
		    const struct sched_config *config);
void scheduler_stop(struct scheduler *s);

/* The end of this loop turn: dispatch, fence page wake-ups, memmgr's completions. */
void sched_turn_later(struct scheduler *s);
/* A peer daemon is gone: fences fail, clients are told (the page's lost flag), we stop. */
void scheduler_fail(struct scheduler *s);

/* --- client.c --- */
/* A new connection of its process; -EDQUOT past SCHED_MAX_CONNS, -ENOMEM. */
int sched_client_create(struct scheduler *s, struct agx_ipc_conn *conn, struct sched_client **out);
/* The client's memory, after it is gone and nothing of it runs (job.c's sched_bury). */
void sched_client_free(struct sched_client *c);
void sched_client_destroy(struct sched_client *c);
/* A gone client with nothing left running goes (at the turn's end). */
void sched_client_maybe_free(struct sched_client *c);
int sched_client_fence_page(struct sched_client *c, int *page_fd, int *event_fd);
int sched_handle_create(struct sched_client *c, uint32_t *handle, uint32_t *slot);
int sched_handle_destroy(struct sched_client *c, uint32_t handle);
struct sched_syncobj *sched_handle_get(struct sched_client *c, uint32_t handle);
/* The fence pages that moved this turn: their eventfds. */
void sched_client_wake(struct scheduler *s);
/* Nothing will move on the client's page any more: it says so, and the client is woken. */
void sched_client_lost(struct sched_client *c);

/* --- job.c --- */
int sched_queue_create(struct sched_client *c, uint32_t vm, unsigned priority, uint32_t *id,
		       char *why, size_t size);
int sched_queue_destroy(struct sched_client *c, uint32_t id);
struct sched_queue *sched_queue_get(struct sched_client *c, uint32_t id);
int sched_submit(struct sched_client *c, const Agx__Scheduler__Submit *sub, uint64_t *seqno,
		 char *why, size_t size);
/* The queue's first command to send, or NULL (the cursor after finished jobs). */
struct sched_cmd *sched_queue_next_cmd(struct sched_queue *q, struct sched_job **job);
/* A command of job ended at fwchan (status 0 or negative errno), with its GPU times. */
void sched_job_cmd_done(struct sched_job *job, int status, uint64_t start_ns, uint64_t end_ns);
/* The queue was reset by job seqno (0: before any): what comes after it fails, nothing more runs.
 */
void sched_queue_reset(struct sched_queue *q, enum sched_queue_status status, uint64_t seqno);
/* Ends the jobs at the queue's head that are done; may free a destroyed queue. */
void sched_queue_settle(struct sched_queue *q);
void sched_queue_update_runnable(struct sched_queue *q);
/* A destroyed queue with nothing in flight goes (at the turn's end). */
void sched_queue_maybe_free(struct sched_queue *q);
/* Frees what went this turn. */
void sched_bury(struct scheduler *s);

/* --- dispatch.c --- */
int sched_links_start(struct scheduler *s);
void sched_links_stop(struct scheduler *s);
void sched_dispatch(struct scheduler *s);
void sched_vm_unref(struct scheduler *s, struct sched_vm *vm);
struct sched_vm *sched_vm_get(struct scheduler *s, pid_t pid, uint32_t vm);
/* QUEUE_CREATE's check that the VM is the client's (memmgr knows): done(q, 0 or errno, why). */
typedef void (*sched_vm_checked_fn)(struct sched_queue *q, int status, const char *why, void *data);
void sched_vm_check(struct sched_queue *q, sched_vm_checked_fn done, void *data);
void sched_context_destroy(struct sched_queue *q);

/* --- export.c --- */
int sched_export(struct sched_client *c, uint32_t handle, uint64_t value, int *fd);
int sched_import(struct sched_client *c, uint32_t handle, uint64_t value, int fd, char *why,
		 size_t size);
void sched_exports_forget_client(struct scheduler *s, struct sched_client *c);
void sched_exports_fini(struct scheduler *s);

/* --- metrics.c --- */
int sched_metrics_write(struct evbuffer *out, void *data);

/* --- server.c --- */
struct agx_ipc_server *sched_server_create(struct scheduler *s, int listen_fd);

#endif
