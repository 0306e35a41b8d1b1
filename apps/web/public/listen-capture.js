// Listen & check's capture (issue 40): an AudioWorklet that passes the microphone's samples to
// the analysis worker through the port it is given, in blocks of 256 with the audio clock's time
// of each block's first sample. Plain JavaScript: the worklet is loaded as it is, from the app.
class ListenCapture extends AudioWorkletProcessor {
  constructor() {
    super();
    this.out = null;
    this.block = new Float32Array(256);
    this.fill = 0;
    this.start = 0;
    this.port.onmessage = (e) => {
      if (e.data && e.data.port) this.out = e.data.port;
    };
  }

  process(inputs) {
    const channel = inputs[0] && inputs[0][0];
    if (!channel || !this.out) return true;
    let from = 0;
    while (from < channel.length) {
      if (this.fill === 0) this.start = (currentFrame + from) / sampleRate;
      const n = Math.min(channel.length - from, this.block.length - this.fill);
      this.block.set(channel.subarray(from, from + n), this.fill);
      this.fill += n;
      from += n;
      if (this.fill === this.block.length) {
        this.out.postMessage({ start: this.start, samples: this.block }, [this.block.buffer]);
        this.block = new Float32Array(256);
        this.fill = 0;
      }
    }
    return true;
  }
}

registerProcessor('riffscribe-listen-capture', ListenCapture);
