// The C side of EvdevInput: libevdev and libevdev-uinput, plus small static
// inline shims for what Swift cannot import (function-like ioctl macros and a
// C variadic log callback), inotify for hotplug, and the reader's forwarding
// path (a frame scanned and written to a clone with no Swift between). Only the EvdevInput
// module imports this.
#ifndef GESTURES_CLIBEVDEV_SHIM_H
#define GESTURES_CLIBEVDEV_SHIM_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/inotify.h>
#include <stdint.h>
#include <unistd.h>
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

/// What `gestures_evdev_take_frame` found at the start of a read queue.
enum gestures_evdev_found {
    /// No `SYN_REPORT` or `SYN_DROPPED` yet: the frame is still partial.
    GESTURES_EVDEV_PARTIAL = 0,
    /// A frame ending in its `SYN_REPORT`.
    GESTURES_EVDEV_FRAME = 1,
    /// A `SYN_DROPPED`: the kernel's buffer for this reader overflowed.
    GESTURES_EVDEV_DROPPED = 2,
};

/// The forwarding rule, and where the first frame of a read queue ends:
/// finds the end of the first frame in `events[0 ..< count]` (the index just
/// past its `SYN_REPORT`, or past a `SYN_DROPPED` met first) in `*end`, and
/// sets `*motion` to 1 when that frame ends in its `SYN_REPORT` and is motion
/// alone (no `EV_KEY`, no `ABS_MT_TRACKING_ID`, and some event besides
/// `EV_SYN`), to 0 otherwise. Returns a `gestures_evdev_found`. The one
/// statement of the rule in C: `gestures_evdev_take_frame` forwards by it,
/// and a test holds it to the Swift one (`InterceptedDevice.isMotion`) over
/// every recording.
static inline int gestures_evdev_scan_frame(const struct input_event *events, long count, long *end, int *motion) {
    int alone = 1, other = 0;
    *motion = 0;
    for (long i = 0; i < count; i++) {
        const struct input_event *e = &events[i];
        if (e->type == EV_SYN && e->code == SYN_DROPPED) {
            *end = i + 1;
            return GESTURES_EVDEV_DROPPED;
        }
        if (e->type == EV_SYN && e->code == SYN_REPORT) {
            *end = i + 1;
            *motion = alone && other;
            return GESTURES_EVDEV_FRAME;
        }
        if (e->type == EV_KEY || (e->type == EV_ABS && e->code == ABS_MT_TRACKING_ID)) alone = 0;
        else if (e->type != EV_SYN) other = 1;
    }
    *end = 0;
    return GESTURES_EVDEV_PARTIAL;
}

/// The forwarding path, as bare as a plain forwarder's: finds the first
/// frame in `events[0 ..< count]` (`gestures_evdev_scan_frame`, whose `*end`
/// it gives), and, when `clone_fd >= 0` and the frame is motion alone by
/// that rule, writes it to `clone_fd` in one `write`, setting `*forwarded`
/// to 1 when all of it was written. Returns a `gestures_evdev_found`. In C so
/// that the events are scanned and written without any Swift between the
/// `read` and the `write`.
static inline int gestures_evdev_take_frame(const struct input_event *events, long count, int clone_fd,
                                            long *end, int *forwarded) {
    int motion;
    int found = gestures_evdev_scan_frame(events, count, end, &motion);
    *forwarded = 0;
    if (found == GESTURES_EVDEV_FRAME && clone_fd >= 0 && motion) {
        size_t size = (size_t)*end * sizeof *events;
        ssize_t written;
        do { written = write(clone_fd, events, size); } while (written < 0 && errno == EINTR);
        *forwarded = written == (ssize_t)size;
    }
    return found;
}

/// Reads the device's key states into `bits` (`size` bytes): what a reader
/// resyncs with after `SYN_DROPPED`. Returns 0 or a negative errno.
/// EVIOCGKEY is a function-like macro.
static inline int gestures_evdev_get_keys(int fd, unsigned char *bits, int size) {
    return ioctl(fd, EVIOCGKEY(size), bits) < 0 ? -errno : 0;
}

/// Reads one absolute axis (its value and range) into `info`.
/// Returns 0 or a negative errno. EVIOCGABS is a function-like macro.
static inline int gestures_evdev_get_abs(int fd, unsigned int code, struct input_absinfo *info) {
    return ioctl(fd, EVIOCGABS(code), info) < 0 ? -errno : 0;
}

/// Reads one per-slot axis of every slot: `values[0]` is the axis code on
/// the way in, `values[1 ... slots]` its value in each slot on the way out.
/// Returns 0 or a negative errno. EVIOCGMTSLOTS is a function-like macro.
static inline int gestures_evdev_get_mt_slots(int fd, int32_t *values, int slots) {
    return ioctl(fd, EVIOCGMTSLOTS((slots + 1) * sizeof(int32_t)), values) < 0 ? -errno : 0;
}

#endif
