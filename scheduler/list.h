/*
 * list.h: the intrusive circular doubly linked list the scheduler keeps
 * its jobs, queues and clients on (the shape of Linux's list_head).
 */
#ifndef SCHEDULER_LIST_H
#define SCHEDULER_LIST_H

#include <stdbool.h>
#include <stddef.h>

struct sched_link {
	struct sched_link *prev, *next;
};

#define sched_container_of(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))

static inline void sched_list_init(struct sched_link *head)
{
	head->prev = head->next = head;
}

static inline bool sched_list_empty(const struct sched_link *head)
{
	return head->next == head;
}

/* A link that is on no list (after sched_list_init or sched_list_del). */
static inline bool sched_list_linked(const struct sched_link *link)
{
	return link->next != link;
}

static inline void sched_list_add_tail(struct sched_link *head, struct sched_link *link)
{
	link->prev = head->prev;
	link->next = head;
	head->prev->next = link;
	head->prev = link;
}

static inline void sched_list_del(struct sched_link *link)
{
	link->prev->next = link->next;
	link->next->prev = link->prev;
	sched_list_init(link);
}

/* Moves the first entry to the end: round robin. */
static inline void sched_list_rotate(struct sched_link *head)
{
	struct sched_link *first = head->next;

	if (first != head && first->next != head) {
		sched_list_del(first);
		sched_list_add_tail(head, first);
	}
}

#endif
