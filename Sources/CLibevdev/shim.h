// The C side of EvdevInput: libevdev and libevdev-uinput, plus small static
// inline shims for what Swift cannot import (function-like ioctl macros and a
// C variadic log callback), and inotify for hotplug. Only the EvdevInput
// module imports this.
#ifndef GESTURES_CLIBEVDEV_SHIM_H
#define GESTURES_CLIBEVDEV_SHIM_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/inotify.h>
#include <linux/input.h>
#include <linux/input-event-codes.h>
#include <linux/uinput.h>
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>

/// Grabs (grab != 0) or releases (grab == 0) the device exclusively.
/// Returns 0 or a negative errno, like libevdev. EVIOCGRAB is a function-like
/// macro, which Swift cannot import.
static inline int gestures_evdev_ioctl_grab(int fd, int grab) {
    return ioctl(fd, EVIOCGRAB, grab) < 0 ? -errno : 0;
}

/// Sets the physical location (`phys`) of a uinput device not created yet.
/// Returns 0 or a negative errno. UI_SET_PHYS is a function-like macro.
static inline int gestures_uinput_set_phys(int fd, const char *phys) {
    return ioctl(fd, UI_SET_PHYS, phys) < 0 ? -errno : 0;
}

/// The log handler: libevdev's messages at error priority go to stderr with a
/// `gestures: libevdev:` prefix; everything else is dropped. The handler is a
/// C variadic (va_list) callback, which Swift cannot write.
static inline void gestures_evdev_log(const struct libevdev *dev,
                                      enum libevdev_log_priority priority,
                                      void *data, const char *file, int line,
                                      const char *func, const char *format,
                                      va_list args) {
    (void)dev; (void)data; (void)file; (void)line; (void)func;
    if (priority > LIBEVDEV_LOG_ERROR) return;
    fputs("gestures: libevdev: ", stderr);
    vfprintf(stderr, format, args);
}

/// Installs `gestures_evdev_log` on one libevdev context.
static inline void gestures_evdev_install_log_handler(struct libevdev *dev) {
    libevdev_set_device_log_function(dev, gestures_evdev_log, LIBEVDEV_LOG_ERROR, NULL);
}

#endif
