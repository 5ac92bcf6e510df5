# rcu_poll: the 2002 rcu_poll RCU on Linux 6.1, booted in QEMU.
#
#   make run     build what is missing, boot the guest to a shell
#   make test    build, run every host and guest test (REPEAT=N: N guest passes)
#
# See README.md and docs/pipeline.md.

SHELL     := /bin/bash
TOP       := $(CURDIR)
BUILD     ?= $(TOP)/build
KSRC      ?= $(BUILD)/linux
# Which RCU the guest kernel runs: poll (rcu_poll) or tree (stock Tree RCU,
# the baseline).  make test builds and boots both.
VARIANT   ?= poll
VARIANTS  := poll tree
SMP       ?= 2
MEM       ?= 1024
APPEND    ?=
OUT       ?= $(BUILD)/test

obj        = $(BUILD)/obj-$(1)
kernel     = $(call obj,$(1))/arch/x86/boot/bzImage
initrd     = $(BUILD)/initramfs-$(1).cpio
OBJ       := $(call obj,$(VARIANT))
KERNEL    := $(call kernel,$(VARIANT))
INITRD    := $(call initrd,$(VARIANT))

TOOL      := $(BUILD)/userspace/rcupoll

# guest/configs: kernel config fragments; guest/harness: what builds, boots
# and judges; guest/tests: the guest tests and their lib.sh; guest/bench:
# make bench; guest/dev: developer helpers.
GUEST_FILES := guest/harness/init guest/harness/run-guest-tests guest/harness/banner \
	guest/harness/mkinitramfs.sh $(wildcard guest/tests/*.sh)

export TOP KSRC

.PHONY: all deps tree kernel initramfs userspace plugin-install trace kshark-plugin screenshot bench run test test-debug torture torture-matrix prefix-builds static export reset-tree clean distclean help

all: kernel initramfs

help:
	@sed -n '1,/^$$/p' Makefile

deps:
	@guest/harness/deps.sh

tree: deps
	@KSRC=$(KSRC) guest/harness/tree.sh prepare

# The kernel build is always asked for: kbuild decides what is stale, and an
# up-to-date tree costs seconds.
kernel: tree
	@echo "  KERNEL   $(VARIANT) (log: $(BUILD)/log/kernel-$(VARIANT).log)"
	@KSRC=$(KSRC) OBJ=$(OBJ) VARIANT=$(VARIANT) LOG=$(BUILD)/log/kernel-$(VARIANT).log \
		guest/harness/build-kernel.sh

initramfs: kernel userspace
	@$(MAKE) --no-print-directory $(INITRD)

$(BUILD)/initramfs-%.cpio: $(GUEST_FILES) $(BUILD)/obj-%/modroot /usr/bin/trace-cmd $(TOOL) \
		$(BUILD)/modules-%/rcu_scenario.ko
	@guest/harness/mkinitramfs.sh $@ $(BUILD)/obj-$*/modroot $(BUILD)/userspace $(BUILD)/modules-$*

# Out-of-tree modules (guest/modules/: rcu_scenario, the scenarios any RCU
# can run), built against the variant's object dir after its kernel.
$(BUILD)/modules-%/rcu_scenario.ko: guest/modules/rcu_scenario.c guest/modules/Kbuild \
		guest/harness/build-modules.sh $(BUILD)/obj-%/modroot
	@guest/harness/build-modules.sh $(BUILD)/obj-$* $(BUILD)/modules-$*

# The capture tool, for the guest and the host alike, and the
# libtraceevent plugin for trace-cmd report and KernelShark.
userspace: deps
	@$(MAKE) --no-print-directory -s -C userspace O=$(BUILD)/userspace
	@$(MAKE) --no-print-directory -s -C tracepoints O=$(BUILD)/tracepoints

# Install the plugin for this user (~/.local/lib/traceevent/plugins/).
plugin-install: userspace
	@$(MAKE) --no-print-directory -s -C tracepoints O=$(BUILD)/tracepoints install

$(TOOL): $(wildcard userspace/*.c userspace/*.h) userspace/Makefile
	@$(MAKE) --no-print-directory -s -C userspace O=$(BUILD)/userspace

run: kernel initramfs
	@echo "  BOOT     $(VARIANT) kernel, $(SMP) vCPUs (TCG$(if $(filter 1,$(KVM)),, ; KVM=1 for KVM)); console log: $(BUILD)/run/console.log"
	@guest/harness/qemu.sh -i -k $(KERNEL) -r $(INITRD) -s $(BUILD)/run/host -l $(BUILD)/run/console.log \
		-c $(SMP) -m $(MEM) -a "$(APPEND)"

# Record a scenario worth seeing in the guest; trace.dat and report in out/.
OUTDIR ?= $(TOP)/out
# VARIANT=tree: the same scenario on Tree RCU, into out/rcupoll-tree.dat.
TRACE_SFX = $(if $(filter poll,$(VARIANT)),,-$(VARIANT))
trace: kernel initramfs
	@TOP=$(TOP) KERNEL=$(KERNEL) INITRD=$(INITRD) OUTDIR=$(OUTDIR) SMP=$(SMP) VARIANT=$(VARIANT) \
		guest/dev/trace.sh

# KernelShark with the rcu_poll plugins on the make trace recording,
# captured headlessly into docs/.
kshark-plugin: deps
	@$(MAKE) --no-print-directory -s -C tracepoints/kshark O=$(BUILD)/kshark

screenshot: userspace kshark-plugin
	@[ -f $(OUTDIR)/rcupoll$(TRACE_SFX).dat ] || $(MAKE) --no-print-directory trace
	@TOP=$(TOP) DAT=$(OUTDIR)/rcupoll$(TRACE_SFX).dat PNG=$(TOP)/docs/kernelshark-stuck-gp$(TRACE_SFX).png \
		guest/dev/screenshot.sh

# Both variants, one kernel build at a time.  REPEAT=N boots the guest
# suites N times and prints how often each test passed (flakiness).
REPEAT ?= 1
test: tree userspace
	@for v in $(VARIANTS); do \
		$(MAKE) --no-print-directory kernel initramfs VARIANT=$$v || exit 1; \
	done
	@OUT=$(OUT) REPEAT=$(REPEAT) $(foreach v,$(VARIANTS),KERNEL_$(v)=$(call kernel,$(v)) INITRD_$(v)=$(call initrd,$(v))) \
		guest/harness/test.sh

# rcu_poll against Tree RCU (and against itself without trace events):
# RUNS alternating boots of each, then scaling; writes docs/performance.md.
# Not part of make test (a smoke run of poll and tree is).
RUNS ?= 3
bench: tree userspace
	@for v in $(VARIANTS) notrace; do \
		$(MAKE) --no-print-directory kernel initramfs VARIANT=$$v || exit 1; \
	done
	@OUT=$(BUILD)/bench RUNS=$(RUNS) $(foreach v,$(VARIANTS) notrace,KERNEL_$(v)=$(call kernel,$(v)) INITRD_$(v)=$(call initrd,$(v))) \
		guest/bench/bench.sh && cp $(BUILD)/bench/performance.md $(BUILD)/bench/performance-*.png docs/ && \
		echo "  WROTE    docs/performance.md, docs/performance-*.png"

# rcu_poll under lockdep (PROVE_RCU), rcu_head debug objects and KASAN:
# the rcutorture runs of make test, on a kernel about twice as slow.
test-debug: tree
	@$(MAKE) --no-print-directory kernel initramfs VARIANT=debug
	@OUT=$(BUILD)/test-debug SUITE=debug KERNEL_debug=$(call kernel,debug) \
		INITRD_debug=$(call initrd,debug) guest/harness/test.sh

# A long soak: rcutorture for TORTURE_SECS on TORTURE_SMP vCPUs, with CPU
# hotplug, rcu_barrier() and forward-progress tests.  Not part of make test.
TORTURE_SECS ?= 1800
TORTURE_SMP  ?= 4
torture: tree
	@$(MAKE) --no-print-directory kernel initramfs VARIANT=poll
	@OUT=$(BUILD)/torture SUITE=torture TORTURE_SECS=$(TORTURE_SECS) TORTURE_SMP=$(TORTURE_SMP) \
		KERNEL_poll=$(call kernel,poll) INITRD_poll=$(call initrd,poll) guest/harness/test.sh

# The scenario matrix (guest/configs/scenarios/POLLnn.config, after
# upstream's rcutorture TREEnn): one kernel per scenario, its torture
# runs and contract tests.  SCENARIOS="POLL01 POLL03" picks some (all by
# default); SMOKE=1 shortens every torture run to 10 s.  Not part of
# make test (a smoke run of POLL02 is).
SCENARIOS ?=
SMOKE ?= 0
# Build after each patch of the series (bisectability); long, not in make test.
# QUICK=1 compiles only what the series touches (kernel/rcu/, fork.o,
# sched/core.o, sysctl.o) instead of the whole kernel after each patch.
prefix-builds: tree
	@BUILD=$(BUILD) QUICK=$(QUICK) guest/harness/prefix-builds.sh

torture-matrix: tree userspace
	@OUT=$(BUILD)/torture-matrix SMOKE=$(SMOKE) BUILD=$(BUILD) guest/harness/torture-matrix.sh $(SCENARIOS)

# sparse and coccinelle on kernel/rcu/ (and fork.c, sysctl.c): none in
# rcu_poll's files, none in upstream files that the tree build does not
# have (build/static/).  Also run by make test.
static:
	@for v in $(VARIANTS); do $(MAKE) --no-print-directory kernel VARIANT=$$v || exit 1; done
	@OUT=$(BUILD)/static OBJ_POLL=$(call obj,poll) OBJ_TREE=$(call obj,tree) guest/harness/static.sh

# Write the extracted tree's commits (since the pristine tag) to patches/.
export:
	@KSRC=$(KSRC) guest/harness/tree.sh export

# Throw away the tree's commits and re-apply patches/ onto pristine.
reset-tree:
	@KSRC=$(KSRC) guest/harness/tree.sh reset

clean:
	rm -rf $(BUILD)/obj-* $(BUILD)/initramfs-* $(BUILD)/test $(BUILD)/run

distclean:
	rm -rf $(BUILD)
