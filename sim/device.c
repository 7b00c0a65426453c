/*
 * device.c: device memory and the register page.  Memory is exactly what
 * the host DMA-mapped: each mapping is the host's fd mapped into this
 * process at its device-physical address range; anything else is a bus
 * error, reported to whoever asked, never a crash.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include "agxipc/log.h"
#include "device.h"
#include "uat.h"

struct sim_device *sim_device_create(uint64_t memory_size, unsigned cores)
{
	struct sim_device *dev = calloc(1, sizeof(*dev));

	if (!dev)
		return NULL;
	dev->memory_size = memory_size;
	dev->cores = cores;
	dev->chip_id = 0x8103; /* t8103, the M1 */
	dev->generation = 13;  /* G13 */
	dev->firmware_thread = true;
	dev->job_time_limit_ns = 5000000000ull;
	dev->fill_bytes_per_ms = SIM_FILL_BYTES_PER_MS;
	dev->uat = calloc(1, sizeof(*dev->uat));
	if (!dev->uat) {
		free(dev);
		return NULL;
	}
	sim_uat_init(dev->uat, dev, 0);
	dev->mmio_fd = dev->doorbell_fd = dev->irq_fd = -1;
	pthread_rwlock_init(&dev->lock, NULL);
	return dev;
}

static void unmap_all(struct sim_device *dev)
{
	for (unsigned i = 0; i < dev->num_mappings; i++)
		munmap(dev->mappings[i].host, dev->mappings[i].size);
	dev->num_mappings = 0;
}

void sim_device_destroy(struct sim_device *dev)
{
	if (!dev)
		return;
	sim_device_detach(dev);
	unmap_all(dev);
	free(dev->mappings);
	free(dev->uat);
	pthread_rwlock_destroy(&dev->lock);
	free(dev);
}

static void init_registers(struct sim_device *dev)
{
	memset(dev->mmio, 0, AGX_MMIO_SIZE);
	*agx_mmio_u32(dev->mmio, AGX_MMIO_ID) = AGX_MMIO_ID_VALUE;
	*agx_mmio_u32(dev->mmio, AGX_MMIO_CPU_STATUS) = AGX_MMIO_CPU_STATUS_STOPPED;
	*agx_mmio_u32(dev->mmio, AGX_MMIO_A2I_CONTROL) = AGX_MMIO_CONTROL_EMPTY;
	*agx_mmio_u32(dev->mmio, AGX_MMIO_I2A_CONTROL) = AGX_MMIO_CONTROL_EMPTY;
}

int sim_device_attach(struct sim_device *dev, int fds[3])
{
	int ret;

	if (dev->attached)
		return -EBUSY;
	dev->mmio_fd = memfd_create("agx-mmio", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	dev->doorbell_fd = eventfd(0, EFD_CLOEXEC);
	dev->irq_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (dev->mmio_fd < 0 || dev->doorbell_fd < 0 || dev->irq_fd < 0 ||
	    ftruncate(dev->mmio_fd, AGX_MMIO_SIZE) < 0 ||
	    fcntl(dev->mmio_fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW) < 0) {
		ret = -errno;
		goto fail;
	}
	dev->mmio = mmap(NULL, AGX_MMIO_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, dev->mmio_fd, 0);
	if (dev->mmio == MAP_FAILED) {
		dev->mmio = NULL;
		ret = -errno;
		goto fail;
	}
	init_registers(dev);
	dev->attached = true;
	ret = sim_rtkit_start(dev);
	if (ret < 0)
		goto fail;
	fds[0] = dev->mmio_fd;
	fds[1] = dev->doorbell_fd;
	fds[2] = dev->irq_fd;
	return 0;

fail:
	sim_device_detach(dev);
	return ret;
}

void sim_device_detach(struct sim_device *dev)
{
	sim_rtkit_stop(dev);
	if (dev->mmio)
		munmap(dev->mmio, AGX_MMIO_SIZE);
	dev->mmio = NULL;
	for (int *fd = &dev->mmio_fd; fd <= &dev->irq_fd; fd++) {
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
	}
	dev->attached = false;
}

int sim_device_reset(struct sim_device *dev)
{
	if (!dev->attached)
		return -ENODEV;
	sim_rtkit_stop(dev);
	init_registers(dev);
	__atomic_store_n(&dev->bus_error_address, 0, __ATOMIC_RELEASE); /* injections end */
	sim_uat_init(dev->uat, dev, 0);					/* TLBs empty */
	return sim_rtkit_start(dev);
}

/*
 * Mappings change under the write lock.  GPU cores take the read lock
 * again after every slice of a shader, so a writer says it is waiting and
 * they hold back until it is done (glibc's rwlocks prefer readers).
 */
static void write_lock(struct sim_device *dev)
{
	__atomic_fetch_add(&dev->writers_waiting, 1, __ATOMIC_ACQ_REL);
	pthread_rwlock_wrlock(&dev->lock);
}

static void write_unlock(struct sim_device *dev)
{
	pthread_rwlock_unlock(&dev->lock);
	__atomic_fetch_sub(&dev->writers_waiting, 1, __ATOMIC_ACQ_REL);
}

void sim_device_read_lock(struct sim_device *dev)
{
	while (__atomic_load_n(&dev->writers_waiting, __ATOMIC_ACQUIRE))
		sched_yield();
	pthread_rwlock_rdlock(&dev->lock);
}

void sim_device_read_unlock(struct sim_device *dev)
{
	pthread_rwlock_unlock(&dev->lock);
}

int sim_device_dma_map(struct sim_device *dev, uint64_t paddr, uint64_t size, int fd,
		       uint64_t offset, bool writable, uint64_t owner)
{
	struct sim_mapping m = {
		.paddr = paddr, .size = size, .writable = writable, .owner = owner
	};
	int ret = 0;

	if (!size || (paddr | size | offset) % SIM_PAGE_SIZE || paddr + size < paddr ||
	    paddr + size > dev->memory_size)
		return -EINVAL;
	m.host = mmap(NULL, size, PROT_READ | (writable ? PROT_WRITE : 0), MAP_SHARED, fd,
		      (off_t)offset);
	if (m.host == MAP_FAILED)
		return -errno;

	write_lock(dev);
	for (unsigned i = 0; i < dev->num_mappings; i++) {
		const struct sim_mapping *o = &dev->mappings[i];

		if (paddr < o->paddr + o->size && o->paddr < paddr + size) {
			ret = -EEXIST;
			goto out;
		}
	}
	if (dev->num_mappings == dev->cap_mappings) {
		unsigned cap = dev->cap_mappings ? dev->cap_mappings * 2 : 16;
		struct sim_mapping *grown = realloc(dev->mappings, cap * sizeof(*grown));

		if (!grown) {
			ret = -ENOMEM;
			goto out;
		}
		dev->mappings = grown;
		dev->cap_mappings = cap;
	}
	dev->mappings[dev->num_mappings++] = m;
out:
	write_unlock(dev);
	if (ret < 0)
		munmap(m.host, size);
	return ret;
}

int sim_device_dma_unmap(struct sim_device *dev, uint64_t paddr, uint64_t size, uint64_t owner)
{
	int ret = -ENOENT;

	write_lock(dev);
	for (unsigned i = 0; i < dev->num_mappings; i++) {
		struct sim_mapping *m = &dev->mappings[i];

		if (m->paddr == paddr && m->size == size) {
			if (m->owner != owner) {
				ret = -EPERM;
				break;
			}
			munmap(m->host, m->size);
			*m = dev->mappings[--dev->num_mappings];
			ret = 0;
			break;
		}
	}
	write_unlock(dev);
	return ret;
}

void sim_device_dma_unmap_owner(struct sim_device *dev, uint64_t owner)
{
	write_lock(dev);
	for (unsigned i = 0; i < dev->num_mappings;) {
		struct sim_mapping *m = &dev->mappings[i];

		if (m->owner == owner) {
			munmap(m->host, m->size);
			*m = dev->mappings[--dev->num_mappings];
		} else {
			i++;
		}
	}
	write_unlock(dev);
}

int sim_device_inject(struct sim_device *dev, enum sim_fault fault, uint64_t address,
		      unsigned count, unsigned delay_ms)
{
	if (fault == SIM_FAULT_BUS_ERROR) {
		__atomic_store_n(&dev->bus_error_address, address + 1, __ATOMIC_RELEASE);
		return 0;
	}
	if (fault == SIM_FAULT_HANG_AT_BOOT) {
		__atomic_store_n(&dev->hang_boots, count, __ATOMIC_RELEASE);
		return 0;
	}
	if (!dev->attached)
		return -ENODEV;
	sim_rtkit_inject(dev, fault, count, delay_ms);
	return 0;
}

/* The mapping holding all of [paddr, paddr + size); called with the lock held. */
static struct sim_mapping *find(struct sim_device *dev, uint64_t paddr, size_t size)
{
	uint64_t bad = __atomic_load_n(&dev->bus_error_address, __ATOMIC_ACQUIRE);

	if (bad && bad - 1 >= paddr && bad - 1 - paddr < size)
		return NULL; /* an injected bus error */
	for (unsigned i = 0; i < dev->num_mappings; i++) {
		struct sim_mapping *m = &dev->mappings[i];

		if (paddr >= m->paddr && paddr - m->paddr <= m->size &&
		    size <= m->size - (paddr - m->paddr))
			return m;
	}
	return NULL;
}

void *sim_device_host_locked(struct sim_device *dev, uint64_t paddr, size_t size, bool write)
{
	struct sim_mapping *m = find(dev, paddr, size);

	return m && (m->writable || !write) ? m->host + (paddr - m->paddr) : NULL;
}

bool sim_device_read(struct sim_device *dev, uint64_t paddr, void *dst, size_t size)
{
	struct sim_mapping *m;

	pthread_rwlock_rdlock(&dev->lock);
	m = find(dev, paddr, size);
	if (m)
		memcpy(dst, m->host + (paddr - m->paddr), size);
	pthread_rwlock_unlock(&dev->lock);
	return m != NULL;
}

bool sim_device_write(struct sim_device *dev, uint64_t paddr, const void *src, size_t size)
{
	struct sim_mapping *m;
	bool ok;

	pthread_rwlock_rdlock(&dev->lock);
	m = find(dev, paddr, size);
	ok = m && m->writable;
	if (ok)
		memcpy(m->host + (paddr - m->paddr), src, size);
	pthread_rwlock_unlock(&dev->lock);
	return ok;
}
