import { clamp } from '@riffscribe/core';
import { useCallback } from 'react';
import { redo, undo, type History } from '../model/history';
import type { PlayerSettings, SettingsAction } from '../model/playerState';
import type { KeyCommand } from './keyboard';
import type { PlaybackBus } from './playbackBus';

/** Play/pause, seeking, loop and the keyboard's commands, on the video element. */
export function usePlayerControls(input: {
  video: HTMLVideoElement | null;
  bus: PlaybackBus;
  duration: number;
  settings: PlayerSettings;
  dispatch: (action: SettingsAction) => void;
  history: History;
  setHistory: (h: History) => void;
}) {
  const { video, bus, duration, settings, dispatch, history, setHistory } = input;

  const seek = useCallback(
    (time: number) => {
      if (!video) return;
      seekVideo(video, time, duration);
    },
    [video, duration],
  );

  const playPause = useCallback(() => {
    if (!video) return;
    if (video.paused || video.ended) void video.play().catch(() => undefined);
    else video.pause();
  }, [video]);

  const toggleLoop = useCallback(() => {
    dispatch({ type: 'toggleLoop', now: video?.currentTime ?? bus.time, duration });
  }, [dispatch, video, bus, duration]);

  const onKey = useCallback(
    (command: KeyCommand) => {
      switch (command.type) {
        case 'togglePlay':
          playPause();
          return;
        case 'speed':
          dispatch({ type: 'stepSpeed', by: command.by });
          return;
        case 'seekBy':
          // The element's own time: it already holds a seek made a moment ago.
          seek((video?.currentTime ?? bus.time) + command.seconds);
          return;
        case 'toggleLoop':
          toggleLoop();
          return;
        case 'escape':
          if (settings.loop) dispatch({ type: 'clearLoop' });
          else if (settings.fullscreen !== 'none')
            dispatch({ type: 'setFullscreen', mode: 'none' });
          return;
        case 'undo':
          setHistory(undo(history));
          return;
        case 'redo':
          setHistory(redo(history));
          return;
        case 'help':
        case 'edit':
        case 'practice':
        case 'section':
          // The screen routes these to the help, the editor and the practice tools.
          return;
      }
    },
    [
      playPause,
      dispatch,
      seek,
      video,
      bus,
      toggleLoop,
      settings.loop,
      settings.fullscreen,
      history,
      setHistory,
    ],
  );

  return { seek, playPause, toggleLoop, onKey };
}

/** Moves the video to `time`, kept inside the lesson (or the video's own length). */
function seekVideo(video: HTMLVideoElement, time: number, duration: number): void {
  const end = duration > 0 ? duration : Number.isFinite(video.duration) ? video.duration : 0;
  video.currentTime = clamp(time, 0, end);
}
