# KOV build. Everything goes to build/; `make help` lists the targets.
#   make        kernel image (build/kov.elf, build/kov.bin), its boot CD and host tools (build/host/)
#   make image  the boot CD of a real Power Mac G5 (build/kov.iso, scripts/mkimage); sim/run
#               --profile g5 --cdrom build/kov.iso boots it through OpenBIOS, no -kernel
#   make test   set-up, build, all tests; ends with "N passed, N failed" (QEMU tests on the
#               serial machine; KOV_MACHINE=parallel on the parallel one, a host thread per CPU)
#   make test-loaded  the same while LOAD_HOGS (2) CPU-bound processes run beside it, as on a
#               busy laptop or a shared CI runner
#   make run    set-up, build, boot the default machine, parallel when the host has at least as
#               many cores as it has CPUs, otherwise serial (KOV_MACHINE=auto|serial|parallel)
#   make bench  set-up, build, benchmarks
#   make peer-bench  KOV's instructions per sample beside Linux perf's on the same emulated
#               POWER8 (a Debian ppc64el kernel; build/peer/peer-bench.txt; about a minute)
#   make case-study  the figures of docs/case-study.md, again (build/case-study/)
#   make fuzz   set-up, build the fuzzers, run each for FUZZ_SECONDS (300), then sysfuzz (10^6 calls)
#   make eval   docs/evaluation.md and docs/eval/*.png from a fresh run (about an hour;
#               raw results kept in docs/eval/results.json)
#   make eval-report  docs/evaluation.md again from the kept docs/eval/results.json alone
#   make soak   SOAK_SECONDS (1800) of monitoring, clients and scrapes under load; nothing lost
#   make instr-variants  bootable images without software instrumentation, to measure what its
#               disabled hooks cost: build/no-instr/ (none), build/no-call-instr/ (no invocation
#               counting), build/no-lock-instr/ (no lock statistics); boot with sim/run --build DIR

CROSS   ?= powerpc64-linux-gnu-
B       := build
TCC     := $(CROSS)gcc
NM      := $(CROSS)nm
OBJCOPY := $(CROSS)objcopy
HOSTCC  ?= gcc

WARN    := -Wall -Wextra -Werror
# Software instrumentation compiled out of the target (kernel/abi/kov_instr.h): empty in the
# normal build; make instr-variants builds images with -DKOV_NO_LOCK_INSTR, -DKOV_NO_CALL_INSTR.
KOV_DEFS :=
TFLAGS  := $(KOV_DEFS) -std=c11 -O2 $(WARN) -ffreestanding -nostdlib -fno-builtin -mcpu=970 -mabi=elfv1 \
           -mbig-endian -mno-altivec -mno-vsx -msoft-float -fno-stack-protector -ffixed-r13 \
           -fno-asynchronous-unwind-tables -fno-pic -Ikernel -Iboot -I$(B)/include -I.
TASFLAGS := $(KOV_DEFS) -mcpu=970 -mabi=elfv1 -Wa,-mregnames -Ikernel -Iboot -I$(B)/include -I.
UFLAGS  := $(KOV_DEFS) -std=c11 -O2 $(WARN) -ffreestanding -nostdlib -fno-builtin -mcpu=970 -mabi=elfv1 \
           -mbig-endian -mno-altivec -mno-vsx -msoft-float -fno-stack-protector \
           -fno-asynchronous-unwind-tables -fno-pic -ffixed-r13 -Ilibc-instr/include -I.
HFLAGS  := -std=c11 -O2 -g $(WARN) -D_POSIX_C_SOURCE=200809L -Itools -I. \
           $(shell pkg-config --cflags jansson 2>/dev/null)

# Where code runs decides its folder (docs/architecture.md):
#   kernel/, kov/       the kernel and its monitor (target only)
#   libc-instr/, dci/   the user C library and the DCI daemon (target user space)
#   gui/, tools/        host programs
#   common/             built for more than one of the three: lib/ (formatting, strings, lock
#                       words and statistics), co/ (the clustered-object core), syms/ (symbol
#                       tables), monitor/ (the monitor's portable half: PMU backends, planner,
#                       multiplexing, attribution, rings)
#   proto/              the DCI wire protocol: the daemon and the host's client
# A program's sources are whole folders. The one exception: a hosted build takes the C
# library's string functions, not common/lib/string.c.
COMMON_C := $(wildcard common/lib/*.c common/syms/*.c common/monitor/*.c)
HOSTED_COMMON_C := $(filter-out common/lib/string.c,$(COMMON_C))
PROTO_C := $(wildcard proto/*.c)
KERNEL_DIRS := kernel kernel/arch kernel/lock kernel/mm kernel/co kernel/mem kernel/proc kernel/drivers kernel/lib kov \
               common/lib common/syms common/monitor common/co
KERNEL_C := $(filter-out kernel/arch/asm_offsets.c,$(foreach d,$(KERNEL_DIRS),$(wildcard $(d)/*.c))) \
            $(wildcard kernel/net/*.c)
KERNEL_C := $(sort $(KERNEL_C))
# lwIP, from Debian's source package (scripts/setup fetches it; never committed).
LWIP    := third_party/lwip/src
LWIP_C  := $(addprefix $(LWIP)/,core/init.c core/def.c core/inet_chksum.c core/ip.c core/mem.c \
           core/memp.c core/netif.c core/pbuf.c core/stats.c core/sys.c core/tcp.c core/tcp_in.c \
           core/tcp_out.c core/timeouts.c core/udp.c core/ipv4/dhcp.c core/ipv4/etharp.c \
           core/ipv4/icmp.c core/ipv4/ip4.c core/ipv4/ip4_addr.c core/ipv4/ip4_frag.c \
           api/api_lib.c api/api_msg.c api/err.c api/netbuf.c api/sockets.c api/tcpip.c \
           netif/ethernet.c)
LWIP_INC := -Ikernel/net -Ikernel/net/compat -I$(LWIP)/include
KERNEL_S := $(wildcard boot/*.S) $(foreach d,$(KERNEL_DIRS),$(wildcard $(d)/*.S))
KOBJS    := $(patsubst %,$(B)/target/%.o,$(KERNEL_C) $(KERNEL_S) $(LWIP_C)) $(B)/target/build_id.o

# Host unit tests: the portable code, wherever it is built for.
PORTABLE_C := $(wildcard kernel/lib/*.c) $(HOSTED_COMMON_C) $(PROTO_C)
UNIT_TESTS := $(patsubst tests/unit/%.c,$(B)/host/tests/%,$(wildcard tests/unit/test_*.c))
HOST_TOOLS := $(B)/host/mksyms $(B)/host/mkinitrd $(B)/host/kovctl $(B)/host/liblisten-backlog.so
# Where the image's build tools (mksyms, mkinitrd) are: a variant's build takes the normal build's.
TOOLS   := $(B)/host

# User space: the C library (sharing the kernel's formatting and string code) and programs.
LIBC_SRC := $(wildcard libc-instr/*.c) libc-instr/syscall.S \
            $(wildcard common/lib/*.c common/co/*.c common/co/*.S)
LIBC_OBJS := $(patsubst %,$(B)/user/obj/%.o,$(LIBC_SRC))
PROGRAMS := $(patsubst sim/workloads/%.c,$(B)/user/bin/%,$(wildcard sim/workloads/*.c)) \
            $(B)/user/bin/dcid
# The DCI daemon (dci/) over the protocol and the symbol tables.
DCID_SRC := $(wildcard dci/*.c) $(PROTO_C) $(wildcard common/syms/*.c)
DCID_OBJS := $(patsubst %,$(B)/user/obj/%.o,$(DCID_SRC))
# Host programs: kovctl (gui/kovctl/) on the shared client code (gui/client/) and the codec.
HOST_CLIENT_C := $(wildcard gui/client/*.c) $(PROTO_C) $(HOSTED_COMMON_C)
# Libraries the client code links with: JSON through Debian's jansson.
HOST_CLIENT_LIBS := $(shell pkg-config --libs jansson 2>/dev/null)

.PHONY: test-loaded all kernel image host unit-tests test run bench peer-bench case-study eval eval-report soak setup clean help
all: kernel $(B)/kov.iso host unit-tests

kernel: $(B)/kov.elf $(B)/kov.bin $(B)/qemu-cede-race.bin $(B)/qemu-cede-race-wdt.bin
host: $(HOST_TOOLS)
unit-tests: $(UNIT_TESTS)

setup:
	@scripts/setup

# --- target ------------------------------------------------------------------------------
$(B)/include/asm_offsets.h: kernel/arch/asm_offsets.c kernel/arch/percpu.h kernel/arch/trap.h
	@mkdir -p $(dir $@)
	@$(TCC) $(TFLAGS) -S -o $@.s $<
	@sed -n 's/^->\([A-Z0-9_]*\) \([0-9]*\).*/#define \1 \2/p' $@.s > $@.tmp && mv $@.tmp $@

$(B)/target/%.c.o: %.c | $(B)/include/asm_offsets.h
	@mkdir -p $(dir $@)
	@echo "  CC  $<"
	@$(TCC) $(TFLAGS) -MMD -MP -c -o $@ $<

# The stack's glue sees lwIP's headers; lwIP itself is built with the kernel's flags.
$(B)/target/kernel/net/%.c.o: kernel/net/%.c | $(B)/include/asm_offsets.h
	@mkdir -p $(dir $@)
	@echo "  CC  $<"
	@$(TCC) $(TFLAGS) $(LWIP_INC) -MMD -MP -c -o $@ $<

$(B)/target/$(LWIP)/%.c.o: $(LWIP)/%.c
	@mkdir -p $(dir $@)
	@echo "  CC  $< (lwIP)"
	@$(TCC) $(TFLAGS) $(LWIP_INC) -MMD -MP -c -o $@ $<

$(B)/target/%.S.o: %.S $(B)/include/asm_offsets.h
	@mkdir -p $(dir $@)
	@echo "  AS  $<"
	@$(TCC) $(TASFLAGS) -MMD -MP -c -o $@ $<

# The build id names the source revision, so a console log says what it came from.
BUILD_ID := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
$(B)/target/build_id.o: FORCE
	@mkdir -p $(dir $@)
	@echo 'const char kov_build_id[] = "$(BUILD_ID)";' > $(B)/target/build_id.c.new
	@cmp -s $(B)/target/build_id.c.new $(B)/target/build_id.c 2>/dev/null || \
		mv $(B)/target/build_id.c.new $(B)/target/build_id.c
	@[ -f $@ ] && [ $@ -nt $(B)/target/build_id.c ] || $(TCC) $(TFLAGS) -c -o $@ $(B)/target/build_id.c
FORCE:

# The symbol table is linked into the image, which moves what follows it: link again with the
# table of the previous link until the table no longer changes (two or three links).
$(B)/kov.elf: $(KOBJS) $(B)/initrd.o boot/kernel.lds $(TOOLS)/mksyms
	@: > $(B)/ksyms.bin
	@for pass in 1 2 3 4 5; do \
		printf '\t.section .ksyms, "a"\n\t.incbin "%s"\n' $(B)/ksyms.bin | \
			$(TCC) $(TASFLAGS) -x assembler -c -o $(B)/ksyms.o - || exit 1; \
		$(TCC) $(TFLAGS) -static -Wl,-T,boot/kernel.lds -Wl,--build-id=none -Wl,-z,noexecstack \
			-Wl,--no-warn-rwx-segments -Wl,--orphan-handling=error -o $@ $(KOBJS) $(B)/initrd.o $(B)/ksyms.o -lgcc \
			|| exit 1; \
		$(NM) -n --synthetic $@ | $(TOOLS)/mksyms -o $(B)/ksyms.next || exit 1; \
		if cmp -s $(B)/ksyms.next $(B)/ksyms.bin; then echo "  LD  $@ ($$pass links)"; exit 0; fi; \
		mv $(B)/ksyms.next $(B)/ksyms.bin; \
	done; echo "symbol table did not converge"; rm -f $@; exit 1

$(B)/kov.bin: $(B)/kov.elf
	@$(OBJCOPY) -O binary $< $@
	@size=$$(stat -c %s $@); [ $$size -le 4194304 ] || { echo "kov.bin is $$size bytes; pseries -bios takes at most 4 MiB"; exit 1; }

# The boot CD: the kernel in a 32-bit ELF (what Open Firmware loads; also the file a network
# boot serves) and a CHRP boot script on an ISO 9660/HFS hybrid (scripts/mkimage says why).
# `make image` is a user's command, so it installs what is missing first, as test and run do.
image: setup
	@$(MAKE) --no-print-directory $(B)/kov.iso
$(B)/kov.iso: $(B)/kov.bin scripts/mkimage
	@CROSS=$(CROSS) scripts/mkimage $(B)/kov.bin $(B)/kov-of.elf $@
	@echo "  ISO $@"

# The minimal guest that shows QEMU's H_CEDE race (tools/qemu-cede-race/run), with and
# without the hypervisor watchdog that rescues it.
$(B)/qemu-cede-race.bin $(B)/qemu-cede-race-wdt.bin: $(B)/qemu-cede-race%.bin: tools/qemu-cede-race/cede_race.S
	@echo "  AS  $@"
	@mkdir -p $(B)
	@$(TCC) $(TASFLAGS) $(if $*,-DWATCHDOG) -nostdlib -static -Wl,-Ttext=0 -Wl,-e,_start -o $(B)/qemu-cede-race$*.elf $<
	@$(OBJCOPY) -O binary -j .text $(B)/qemu-cede-race$*.elf $@

# Images without software instrumentation (kernel/abi/kov_instr.h), for the thesis's Table 4.3:
# the kernel with its RAM disk (the workloads and dcid) built again with the hooks compiled out,
# each into a folder of its own (B), with the normal build's mksyms and mkinitrd. The build id
# names the variant (kovctl info, the console's first line).
# same-code is the normal code again, its build id's text alone different: a deterministic
# -icount run cannot show noise, but the code's layout can move a figure by itself.
INSTR_VARIANTS := no-instr no-call-instr no-lock-instr same-code
VARIANT_DEFS.same-code :=
VARIANT_DEFS.no-instr := -DKOV_NO_LOCK_INSTR -DKOV_NO_CALL_INSTR
VARIANT_DEFS.no-call-instr := -DKOV_NO_CALL_INSTR
VARIANT_DEFS.no-lock-instr := -DKOV_NO_LOCK_INSTR
.PHONY: instr-variants $(addprefix $(B)/,$(INSTR_VARIANTS))
instr-variants: $(addprefix $(B)/,$(INSTR_VARIANTS))
$(addprefix $(B)/,$(INSTR_VARIANTS)): $(B)/%: $(B)/host/mksyms $(B)/host/mkinitrd
	@$(MAKE) --no-print-directory B=$@ TOOLS=$(B)/host KOV_DEFS="$(VARIANT_DEFS.$*)" \
		BUILD_ID="$(BUILD_ID)+$*" $@/kov.elf $@/kov.bin

# --- user space --------------------------------------------------------------------------
$(B)/user/obj/%.c.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC  $< (user)"
	@$(TCC) $(UFLAGS) -MMD -MP -c -o $@ $<

$(B)/user/obj/%.S.o: %.S
	@mkdir -p $(dir $@)
	@echo "  AS  $< (user)"
	@$(TCC) $(TASFLAGS) -c -o $@ $<

$(B)/user/libc.a: $(LIBC_OBJS)
	@rm -f $@
	@$(CROSS)ar rcs $@ $^

$(B)/user/bin/%: sim/workloads/%.c $(B)/user/libc.a $(B)/user/obj/libc-instr/crt0.S.o libc-instr/user.lds
	@mkdir -p $(dir $@)
	@echo "  LD  $@"
	@$(TCC) $(UFLAGS) -static -Wl,-T,libc-instr/user.lds -Wl,--build-id=none -Wl,-z,noexecstack \
		-Wl,--no-warn-rwx-segments -Wl,-z,max-page-size=4096 -o $@ $(B)/user/obj/libc-instr/crt0.S.o $< $(B)/user/libc.a -lgcc

$(B)/user/bin/dcid: $(DCID_OBJS) $(B)/user/libc.a $(B)/user/obj/libc-instr/crt0.S.o libc-instr/user.lds
	@mkdir -p $(dir $@)
	@echo "  LD  $@"
	@$(TCC) $(UFLAGS) -static -Wl,-T,libc-instr/user.lds -Wl,--build-id=none -Wl,-z,noexecstack \
		-Wl,--no-warn-rwx-segments -Wl,-z,max-page-size=4096 -o $@ $(B)/user/obj/libc-instr/crt0.S.o $(DCID_OBJS) $(B)/user/libc.a -lgcc

# Workloads of several files: the C files of sim/workloads/NAME/ make the program NAME.
MULTI_PROGRAMS := $(sort $(patsubst sim/workloads/%/,%,$(dir $(wildcard sim/workloads/*/*.c))))
PROGRAMS += $(addprefix $(B)/user/bin/,$(MULTI_PROGRAMS))
define multi_file_program
$(B)/user/bin/$(1): $(patsubst %,$(B)/user/obj/%.o,$(wildcard sim/workloads/$(1)/*.c)) $(B)/user/libc.a $(B)/user/obj/libc-instr/crt0.S.o libc-instr/user.lds
	@mkdir -p $$(dir $$@)
	@echo "  LD  $$@"
	@$(TCC) $(UFLAGS) -static -Wl,-T,libc-instr/user.lds -Wl,--build-id=none -Wl,-z,noexecstack \
		-Wl,--no-warn-rwx-segments -Wl,-z,max-page-size=4096 -o $$@ $(B)/user/obj/libc-instr/crt0.S.o $$(filter %.c.o,$$^) $(B)/user/libc.a -lgcc
endef
$(foreach p,$(MULTI_PROGRAMS),$(eval $(call multi_file_program,$(p))))
# httpd's request parser is also unit-tested on the host (the test includes it).
$(B)/host/tests/test_http_parse: sim/workloads/httpd/http_parse.c sim/workloads/httpd/http_parse.h
# httpd's static files, stored in the RAM disk as www/NAME.
WWW_FILES := $(wildcard sim/workloads/httpd/www/*)

$(B)/initrd.bin: $(PROGRAMS) $(WWW_FILES) $(TOOLS)/mkinitrd
	@$(TOOLS)/mkinitrd -o $@ $(PROGRAMS) $(foreach f,$(WWW_FILES),www/$(notdir $(f))=$(f))

$(B)/initrd.o: $(B)/initrd.bin
	@printf '\t.section .initrd, "a"\n\t.balign 8\n\t.incbin "%s"\n' $< | \
		$(TCC) $(TASFLAGS) -x assembler -c -o $@ -

# --- host --------------------------------------------------------------------------------
$(B)/host/mksyms: tools/mksyms.c tools/mksyms_lib.c tools/mksyms_lib.h
	@mkdir -p $(dir $@)
	@echo "  HOSTCC $@"
	@$(HOSTCC) $(HFLAGS) -o $@ tools/mksyms.c tools/mksyms_lib.c

# Preloaded into QEMU by sim/run when it forwards ports (tools/listen_backlog.c says why).
$(B)/host/liblisten-backlog.so: tools/listen_backlog.c
	@mkdir -p $(dir $@)
	@echo "  HOSTCC $@"
	@$(HOSTCC) -std=c11 -O2 $(WARN) -shared -fPIC -o $@ $< -ldl

$(B)/host/mkinitrd: tools/mkinitrd.c
	@mkdir -p $(dir $@)
	@echo "  HOSTCC $@"
	@$(HOSTCC) $(HFLAGS) -o $@ $<

$(B)/host/kovctl: $(wildcard gui/kovctl/*.c gui/kovctl/*.h gui/client/*.h proto/*.h common/*/*.h kernel/abi/*.h) $(HOST_CLIENT_C)
	@mkdir -p $(dir $@)
	@echo "  HOSTCC $@"
	@$(HOSTCC) $(HFLAGS) -Igui -o $@ $(wildcard gui/kovctl/*.c) $(HOST_CLIENT_C) $(HOST_CLIENT_LIBS)

$(B)/host/tests/%: tests/unit/%.c $(PORTABLE_C) $(wildcard kernel/lib/*.h kernel/abi/*.h common/*/*.h proto/*.h gui/client/*) tools/mksyms_lib.c
	@mkdir -p $(dir $@)
	@echo "  HOSTCC $@"
	@$(HOSTCC) $(HFLAGS) -O1 -Igui -o $@ $< $(PORTABLE_C) $(wildcard gui/client/*.c) tools/mksyms_lib.c -lcmocka -lpthread $(HOST_CLIENT_LIBS)

# The evaluation's charts (sim/eval): Cairo, which the viewer needs too.
$(B)/host/kov-plot: tools/plot.c
	@mkdir -p $(dir $@)
	@echo "  HOSTCC $@"
	@$(HOSTCC) $(HFLAGS) $$(pkg-config --cflags cairo) -o $@ $< $$(pkg-config --libs cairo) -lm

# The viewer's build rules live with it.
-include gui/viewer/viewer.mk
# Fuzzers and the sanitizer builds (make test builds them; make fuzz runs the fuzzers).
include tests/fuzz/fuzz.mk

# --- tests, run, bench -------------------------------------------------------------------
test: setup
	@$(MAKE) --no-print-directory all fuzzers sanitized $(B)/no-instr
	@tests/run

# The suite on a busy host: shell loops that never sleep (no package needed), stopped with it.
LOAD_HOGS ?= 2
test-loaded: setup
	@$(MAKE) --no-print-directory all fuzzers sanitized
	@tests/loaded $(LOAD_HOGS)

# The default target with its DCI daemon forwarded to the host, the viewer on it (sim/demo).
# KOV_RUN_SECONDS=N stops it by itself N seconds after it is ready (exit 0 only if it was).
KOV_PORT ?= 7242
KOV_METRICS_PORT ?= 9242
# What the demo target runs: page-fault contention and a contended, monitored sleep lock.
KOV_WORKLOAD ?= pagestorm:4:32,sleepbench:3:1000:0
KOV_CPUS ?= 4
# The controller token of the local demo target (the viewer configures and starts it).
KOV_TOKEN ?= kov
export KOV_PORT KOV_METRICS_PORT KOV_WORKLOAD KOV_CPUS KOV_TOKEN KOV_RUN_SECONDS
# The machine: auto is parallel (a host thread per CPU) when the host has at least as many cores
# as the target has CPUs, otherwise serial; sim/run says which. Only run gets this default:
# sim/run itself, and so make test, stay serial unless KOV_MACHINE is set.
KOV_MACHINE ?= auto
run: setup
	@$(MAKE) --no-print-directory all
	@KOV_MACHINE=$(KOV_MACHINE) sim/demo

bench: setup
	@$(MAKE) --no-print-directory all
	@tests/bench/run

# Linux perf beside KOV on the same machine (its rules: tools/peer-bench/peer.mk).
include tools/peer-bench/peer.mk

# docs/case-study.md's figures and screenshots, again (build/case-study/).
case-study: setup
	@$(MAKE) --no-print-directory all
	@sim/case-study

# The soak (tests/qemu/soak.sh, whose short form make test runs): every sample accounted for
# and no memory drift after SOAK_SECONDS under load.
SOAK_SECONDS ?= 1800
soak: setup
	@$(MAKE) --no-print-directory all
	@SOAK_SECONDS=$(SOAK_SECONDS) bash tests/qemu/soak.sh

# docs/evaluation.md and its figures (docs/eval/), again, from a run of sim/eval/run; its raw
# results are kept in docs/eval/results.json, from which eval-report writes the document alone.
eval: setup
	@$(MAKE) --no-print-directory all instr-variants $(B)/host/kov-plot
	@sim/eval/run

eval-report: $(B)/host/kov-plot
	@sim/eval/report.py docs/eval/results.json

clean:
	rm -rf $(B)

help:
	@sed -n 's/^#   //p' Makefile

-include $(shell find $(B)/target $(B)/user -name '*.d' 2>/dev/null)
