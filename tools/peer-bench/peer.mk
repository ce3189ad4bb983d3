# make peer-bench (tools/peer-bench/): Linux perf's cost per sample beside KOV's on the same
# emulated machine. Not part of make test. Its /init is a static ppc64el program, built with
# Debian's cross compiler (tools/peer-bench/setup installs it); everything goes to build/peer/.
PEER    := $(B)/peer
PEER_CC ?= powerpc64le-linux-gnu-gcc

$(PEER)/init: tools/peer-bench/init.c
	@mkdir -p $(dir $@)
	@echo "  PEERCC $@"
	@$(PEER_CC) -std=c11 -O2 $(WARN) -static -o $@ $<

# The initramfs: /init and the virtual Ethernet's driver (tools/peer-bench/setup takes it from
# the kernel's package), a newc cpio written by Debian's cpio.
$(PEER)/initramfs.cpio: $(PEER)/init $(wildcard $(PEER)/boot/ibmveth.ko)
	@rm -rf $(PEER)/root && mkdir -p $(PEER)/root && cp $< $(PEER)/root/init
	@if [ -f $(PEER)/boot/ibmveth.ko ]; then cp $(PEER)/boot/ibmveth.ko $(PEER)/root/; fi
	@(cd $(PEER)/root && ls | cpio -o -H newc -R 0:0 --quiet) > $@.tmp && mv $@.tmp $@

peer-bench: setup
	@tools/peer-bench/setup
	@$(MAKE) --no-print-directory all $(PEER)/initramfs.cpio
	@tools/peer-bench/run
