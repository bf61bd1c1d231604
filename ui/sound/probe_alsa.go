//go:build linux && cgo

package sound

// #cgo pkg-config: alsa
// #include <alsa/asoundlib.h>
//
// static void quiet(const char *file, int line, const char *function, int err, const char *fmt, ...) {}
//
// // probe opens the default playback device as oto will (float samples,
// // two channels, 48 kHz) and closes it again. It does not wait for a
// // busy device, and keeps ALSA's complaints off stderr.
// static int probe(void) {
// 	snd_pcm_t *h;
// 	int err;
// 	snd_lib_error_set_handler(quiet);
// 	err = snd_pcm_open(&h, "default", SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK);
// 	if (err >= 0) {
// 		err = snd_pcm_set_params(h, SND_PCM_FORMAT_FLOAT_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 2, 48000, 1, 100000);
// 		snd_pcm_close(h);
// 	}
// 	snd_lib_error_set_handler(NULL);
// 	return err;
// }
import "C"

import "fmt"

// probe says whether ALSA's default device can play what oto will play.
func probe() error {
	if err := C.probe(); err < 0 {
		return fmt.Errorf("no sound device: ALSA default: %s", C.GoString(C.snd_strerror(err)))
	}
	return nil
}
