/*
 * make-seeds: seed sessions for fuzz-requests, written into DIR: a
 * client's life (BOs, a VM, binds, unbinds, export, import, an import by
 * fd, query, closes), and a privileged peer's (UAT info, kernel memory, faults, slots,
 * completions).  In a fresh agx-memmgr the kernel VM is VM 1, so the
 * client's first VM is 2 and its first BO handle 1.
 *
 *   make-seeds DIR
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agxipc/ipc.h"
#include "harness.h"

int main(int argc, char **argv)
{
	static struct seed_session seed;
	Agx__Memmgr__BoCreate bc = AGX__MEMMGR__BO_CREATE__INIT;
	Agx__Memmgr__VmCreate vc = AGX__MEMMGR__VM_CREATE__INIT;
	Agx__Memmgr__VmBind vb = AGX__MEMMGR__VM_BIND__INIT;
	Agx__Memmgr__VmUnbind vu = AGX__MEMMGR__VM_UNBIND__INIT;
	Agx__Memmgr__BoExport be = AGX__MEMMGR__BO_EXPORT__INIT;
	Agx__Memmgr__BoImport bi = AGX__MEMMGR__BO_IMPORT__INIT;
	Agx__Memmgr__BoClose bx = AGX__MEMMGR__BO_CLOSE__INIT;
	Agx__Memmgr__VmDestroy vd = AGX__MEMMGR__VM_DESTROY__INIT;
	Agx__Memmgr__Query q = AGX__MEMMGR__QUERY__INIT;
	Agx__Memmgr__UatInfo ui = AGX__MEMMGR__UAT_INFO__INIT;
	Agx__Memmgr__KernelAlloc ka = AGX__MEMMGR__KERNEL_ALLOC__INIT;
	Agx__Memmgr__KernelFree kf = AGX__MEMMGR__KERNEL_FREE__INIT;
	Agx__Memmgr__FaultDecode fd = AGX__MEMMGR__FAULT_DECODE__INIT;
	Agx__Memmgr__VmSlotBind sb = AGX__MEMMGR__VM_SLOT_BIND__INIT;
	Agx__Memmgr__JobsCompleted jc = AGX__MEMMGR__JOBS_COMPLETED__INIT;
	uint8_t token[32] = { 0 };

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	/* a client */
	seed_start(&seed, 1);
	bc.size = 3 * 0x4000;
	seed_add(&seed, AGX_IPC_MSG_MEMMGR_BO_CREATE, &bc.base);
	bc.size = 0x4000;
	bc.flags = 4; /* VM-private to VM 2 */
	bc.vm = 2;
	seed_add(&seed, AGX_IPC_MSG_MEMMGR_VM_CREATE, &vc.base);
	seed_add(&seed, AGX_IPC_MSG_MEMMGR_BO_CREATE, &bc.base);
	vb.vm = 2;
	vb.bo = 1;
	vb.size = 2 * 0x4000;
	vb.va = 0x100000000ull;
	vb.flags = 3;
	seed_add(&seed, AGX_IPC_MSG_MEMMGR_VM_BIND, &vb.base);
	vb.bo = 2;
	vb.size = 0x4000;
	vb.flags = 1 | 4 | 8;
	seed_add(&seed, AGX_IPC_MSG_MEMMGR_VM_BIND, &vb.base);
	vu.vm = 2;
	vu.va = 0x100004000ull;
	vu.size = 0x4000;
	seed_add(&seed, AGX_IPC_MSG_MEMMGR_VM_UNBIND, &vu.base);
	be.handle = 1;
	seed_add(&seed, AGX_IPC_MSG_MEMMGR_BO_EXPORT, &be.base);
	bi.token.data = token;
	bi.token.len = sizeof(token);
	seed_add(&seed, AGX_IPC_MSG_MEMMGR_BO_IMPORT, &bi.base);
	/*
	 * BO_IMPORT_FD's frame: seeds carry no fds, and the encoder makes no
	 * frame of a type without the fds its row says, so the frame is
	 * QUERY's (an empty body too) given the type and fd count: memmgr
	 * sees a frame whose fd did not come, and must refuse it.
	 */
	{
		size_t at = seed.length + 2;
		uint16_t type = AGX_IPC_MSG_MEMMGR_BO_IMPORT_FD;

		seed_add(&seed, AGX_IPC_MSG_MEMMGR_QUERY, &q.base);
		memcpy(seed.data + at + offsetof(struct agx_ipc_header, type), &type, 2);
		seed.data[at + offsetof(struct agx_ipc_header, num_fds)] = 1;
	}
	seed_add(&seed, AGX_IPC_MSG_MEMMGR_QUERY, &q.base);
	bx.handle = 1;
	seed_add(&seed, AGX_IPC_MSG_MEMMGR_BO_CLOSE, &bx.base);
	vd.vm = 2;
	seed_add(&seed, AGX_IPC_MSG_MEMMGR_VM_DESTROY, &vd.base);
	seed_save(&seed, argv[1], "client");

	/* a privileged peer */
	seed_start(&seed, 3);
	seed_add(&seed, AGX_IPC_MSG_MEMMGR_UAT_INFO, &ui.base);
	ka.size = 0x8000;
	seed_add(&seed, AGX_IPC_MSG_MEMMGR_KERNEL_ALLOC, &ka.base);
	fd.context_slot = 0;
	fd.va = 0xffffffa000004000ull;
	seed_add(&seed, AGX_IPC_MSG_MEMMGR_FAULT_DECODE, &fd.base);
	sb.client_pid = 1;
	sb.vm = 2;
	sb.seqno = 1;
	seed_add(&seed, AGX_IPC_MSG_MEMMGR_VM_SLOT_BIND, &sb.base);
	jc.client_pid = 1;
	jc.vm = 2;
	jc.seqno = 1;
	seed_add(&seed, AGX_IPC_MSG_MEMMGR_JOBS_COMPLETED, &jc.base);
	kf.handle = 1;
	seed_add(&seed, AGX_IPC_MSG_MEMMGR_KERNEL_FREE, &kf.base);
	seed_save(&seed, argv[1], "privileged");

	/* the client's requests on the privileged socket, and the reverse */
	seed.data[0] = 3;
	seed_save(&seed, argv[1], "crossed");
	return 0;
}
