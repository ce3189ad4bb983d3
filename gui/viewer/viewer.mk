# kov-viewer: SDL2 for the window and input, Cairo for drawing, Pango for text (Debian's
# libsdl2-dev, libcairo2-dev, libpango1.0-dev, installed by scripts/setup).
VIEWER_PKGS := sdl2 cairo pangocairo
# The PMU configuration utility checks choices with the KM's own planner (common/monitor/,
# part of HOST_CLIENT_C).
VIEWER_C := $(wildcard gui/viewer/*.c)

$(B)/host/kov-viewer: $(VIEWER_C) $(wildcard gui/viewer/*.h gui/client/*.h proto/*.h common/*/*.h) $(HOST_CLIENT_C)
	@mkdir -p $(dir $@)
	@echo "  HOSTCC $@"
	@$(HOSTCC) $(HFLAGS) -D_DEFAULT_SOURCE -D_GNU_SOURCE -Igui $$(pkg-config --cflags $(VIEWER_PKGS)) \
		-o $@ $(VIEWER_C) $(HOST_CLIENT_C) $$(pkg-config --libs $(VIEWER_PKGS)) $(HOST_CLIENT_LIBS) -lm

host: $(B)/host/kov-viewer
