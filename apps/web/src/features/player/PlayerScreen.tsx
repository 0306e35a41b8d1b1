import { DEFAULT_TUNING, defaultGrid, lessonDisplayName, type ChordEvent } from '@riffscribe/core';
import { lazy, Suspense, useCallback, useEffect, useMemo, useReducer, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/endpoints';
import { LoadingOverlay } from '../../ui/LoadingOverlay';
import { useLessonContent } from './api/useLessonContent';
import { useCreditsRefresh, useLessonMeta, useRecordLoad } from './api/useLessonMeta';
import { displayChordName } from './chords/chordNames';
import { DraftBanner } from './editor/DraftBanner';
import { EditBar } from './editor/EditBar';
import { KeyboardHelp } from './editor/KeyboardHelp';
import { useDraft } from './editor/useDraft';
import { useEditor } from './editor/useEditor';
import { PlayerHeader } from './header/PlayerHeader';
import type { LessonSettings } from './model/lesson';
import {
  DEFAULT_SETTINGS,
  settingsReducer,
  type AudioSource,
  type PlayerSettings,
  type TabSource,
} from './model/playerState';
import { useLessonDoc } from './model/useLessonDoc';
import { useSave } from './model/useSave';
import type { KeyCommand } from './playback/keyboard';
import { PlaybackBus } from './playback/playbackBus';
import { useFullscreen } from './playback/useFullscreen';
import { useMediaOutputs } from './playback/useMediaOutputs';
import { usePlaybackLoop } from './playback/usePlaybackLoop';
import { usePlayerControls } from './playback/usePlayerControls';
import { usePlayerKeys } from './playback/usePlayerKeys';
import { useVideoRecovery } from './playback/useVideoRecovery';
import { useVideoState } from './playback/useVideoState';
import { useSynth } from './synth/useSynth';
import { PracticePanel } from './practice/PracticePanel';
import { SectionsPanel } from './practice/SectionsPanel';
import { useLeftHanded } from './practice/useLeftHanded';
import { usePractice } from './practice/usePractice';
import { ListenBar, ListenPanel } from './practice/listen/ListenPanel';
import { useListen } from './practice/listen/useListen';
import { useSections } from './practice/useSections';
import { reviewLoop } from './review/reviewQueue';
import { useSession } from '../auth/useSession';
import { ShareMenu } from './header/ShareMenu';
import { SignedOutInvite } from './header/SignedOutInvite';
import { ExportDialog } from './export/ExportDialog';
import { PlayerToolbar } from './toolbar/PlayerToolbar';
import { TunerModal } from './tuner/TunerModal';
import { FretboardCanvas } from './ui/FretboardCanvas';
import { IntroModal } from './ui/IntroModal';
import { LoadFailed } from './ui/LoadFailed';
import { NoCredits } from './ui/NoCredits';
import { SeekSlider } from './ui/SeekSlider';
import { SoundingNotes } from './ui/SoundingNotes';
import { TimelineCanvas } from './ui/TimelineCanvas';
import { VideoPanel } from './ui/VideoPanel';
import { ViewSwitch, type TabViewMode } from './notation/ViewSwitch';
import { useBeatGrid } from './notation/useBeatGrid';

// alphaTab (about 1 MB) loads only when the notation view is opened.
const NotationView = lazy(() =>
  import('./notation/NotationView').then((m) => ({ default: m.NotationView })),
);

/** What the hooks work with until the results file arrives; never drawn (the player waits for it). */
const NO_SETTINGS: LessonSettings = {
  capo: 0,
  tuning: DEFAULT_TUNING,
  tuningName: 'Standard',
  musicalKey: '',
  duration: null,
  audioFiles: null,
};

/** The tab player for a lesson the caller may see (the view credit, if any, is settled). */
export function PlayerScreen(props: {
  jobId: string;
  isOwner: boolean;
  fallbackName: string;
  /** Hidden behind 'Desktop Experience Required' while the window is too narrow. */
  suspended?: boolean;
  /** A signed-out visitor's view-only look at a shared lesson: no rating, edits or counts. */
  signedOut?: boolean;
  /** The version of the tab to open on (a share link's `version`); the edited one by default. */
  initialTabSource?: TabSource;
}) {
  const { jobId, isOwner, suspended = false, signedOut = false } = props;
  const [settings, dispatch] = useReducer(
    settingsReducer,
    props.initialTabSource,
    (tabSource = 'edited'): PlayerSettings => ({ ...DEFAULT_SETTINGS, tabSource }),
  );
  const queryClient = useQueryClient();
  const content = useLessonContent(jobId, settings.tabSource);
  const meta = useLessonMeta(jobId, !signedOut);
  const session = useSession();
  const lessonDuration = content.settings?.duration ?? 0;
  const beats = useBeatGrid(jobId, settings.tabSource === 'edited', lessonDuration);
  const { history, setHistory, index } = useLessonDoc(content.notes, content.chords, beats.grid);
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const [stem, setStem] = useState<HTMLAudioElement | null>(null);
  const [root, setRoot] = useState<HTMLDivElement | null>(null);
  const [tunerOpen, setTunerOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const [exportOpen, setExportOpen] = useState(false);
  const [view, setView] = useState<TabViewMode>('tab');
  const [bus] = useState(() => new PlaybackBus());
  const videoState = useVideoState(video);
  const lesson = content.settings ?? NO_SETTINGS;
  const { capo, tuning } = lesson;
  // The video's own duration once known (0 before its metadata loads), else the results file's.
  const duration = videoState.duration > 0 ? videoState.duration : (lesson.duration ?? 0);
  const stemUrl = content.stemUrl ?? null;

  // The browser tab names the lesson (history, bookmarks, screen readers; issue 37).
  const titleName = lessonDisplayName(
    meta.meta?.projectName,
    props.fallbackName,
    meta.meta?.fileName ?? '',
  );
  useEffect(() => {
    if (!titleName) return;
    const before = document.title;
    document.title = `${titleName} · Riffscribe`;
    return () => {
      document.title = before;
    };
  }, [titleName]);

  // The edited version read at load time may be older than what was saved since: forget it when
  // the player turns to the original, so that turning back reads what the server has.
  useEffect(() => {
    if (settings.tabSource !== 'original') return;
    for (const key of ['lesson-notes', 'lesson-chords', 'beats'])
      queryClient.removeQueries({ queryKey: [key, jobId, true], exact: true });
  }, [settings.tabSource, jobId, queryClient]);
  useRecordLoad(jobId, !signedOut && content.notes !== undefined);
  useCreditsRefresh(!signedOut && !isOwner && content.notes !== undefined);
  const listen = useListen({
    video,
    notes: index.notes,
    tuning,
    capo,
    loop: settings.loop,
    duration,
  });
  const practice = usePractice({
    video,
    grid: history.doc.beats ?? beats.grid,
    loop: settings.loop,
    speed: settings.speed,
    dispatch,
    passCounts: listen.passCounts,
  });
  // Listening without headphones, the lesson is silent: the microphone would take its sound
  // for the player's (Listen & check hears the lesson's own audio as a perfect pass).
  const outputs = listen.silenceLesson ? { ...settings, volume: 0 } : settings;
  const [leftHanded, setLeftHanded] = useLeftHanded(session.user?.uid ?? null);
  usePlaybackLoop(video, index, settings.loop, bus, practice.onWrap);
  useMediaOutputs(video, stem, outputs);
  const synthLesson = useMemo(() => ({ index, tuning, capo }), [index, tuning, capo]);
  const synth = useSynth({
    video,
    enabled: settings.audioSource === 'synth',
    settings: settings.synth,
    volume: outputs.volume,
    lesson: synthLesson,
  });
  const exitFullscreen = useCallback(() => {
    dispatch({ type: 'setFullscreen', mode: 'none' });
  }, []);
  useFullscreen(root, settings.fullscreen, exitFullscreen);
  const chordText = useCallback(
    (c: ChordEvent) => displayChordName(c.chord, settings.chordDisplay, capo),
    [settings.chordDisplay, capo],
  );
  const exportLesson = useMemo(
    () => ({ notes: index.notes, index, chords: history.doc.chords, chordText, tuning, capo }),
    [index, history.doc.chords, chordText, tuning, capo],
  );
  const save = useSave({
    jobId,
    history,
    setHistory,
    enabled: meta.canEdit && settings.tabSource === 'edited',
    loadedBeats: beats.grid,
  });
  const controls = usePlayerControls({
    video,
    bus,
    duration,
    settings,
    dispatch,
    history,
    setHistory,
  });
  const sections = useSections({
    jobId,
    uid: signedOut ? null : (session.user?.uid ?? null),
    grid: history.doc.beats ?? beats.grid,
    duration,
    loop: settings.loop,
    dispatch,
    seek: controls.seek,
    now: () => video?.currentTime ?? bus.time,
  });
  useEffect(() => {
    if (suspended) video?.pause();
  }, [suspended, video]);
  const onVideoError = useVideoRecovery(video, content.refreshVideo);
  const ready =
    content.notes !== undefined &&
    content.chords !== undefined &&
    !!content.settings &&
    beats.grid !== undefined;
  // Edit mode (spec section 4): edit permission, the edited tabs, and not fullscreen.
  // Not on the other version's notes or bars while the tabs source switches (they are on screen
  // until the edited version arrives).
  const canEditHere =
    meta.canEdit &&
    settings.tabSource === 'edited' &&
    ready &&
    !content.switching &&
    !beats.switching;
  const editing = canEditHere && settings.fullscreen === 'none';
  const editor = useEditor({
    enabled: editing,
    history,
    setHistory,
    index,
    zoom: settings.zoom,
    duration,
    tuning,
    capo,
    now: () => video?.currentTime ?? bus.time,
    onReview: (note) => {
      const loop = reviewLoop(note, duration);
      dispatch({ type: 'setLoop', loop });
      controls.seek(loop.start);
    },
  });
  const draft = useDraft({ jobId, history, enabled: canEditHere });
  const onPractice = (tool: Extract<KeyCommand, { type: 'practice' }>['tool']) => {
    if (tool === 'metronome') practice.setMetronome(!practice.metronome);
    else if (tool === 'countIn') practice.setCountIn(!practice.countInOn);
    else if (tool === 'trainer') {
      if (settings.loop || practice.training) practice.toggleTraining();
    } else if (tool === 'listen') listen.toggle();
    else if (tool === 'waitMode') listen.setWaitMode(!listen.waitMode);
    else if (tool === 'headphones') listen.setHeadphones(!listen.headphones);
    else if (tool === 'calibrate') listen.calibrate();
    else setLeftHanded(!leftHanded);
  };
  const onKey = (command: KeyCommand) => {
    if (command.type === 'help') setHelpOpen(true);
    else if (command.type === 'practice') onPractice(command.tool);
    else if (command.type === 'section') sections.step(command.by);
    else if (command.type === 'togglePlay') practice.play();
    else if (command.type === 'edit') editor.onKey(command.key);
    else if (
      command.type === 'escape' &&
      (editor.selection.notes.length > 0 || editor.selection.chord !== null)
    )
      editor.clear();
    else if (canEditHere || (command.type !== 'undo' && command.type !== 'redo'))
      controls.onKey(command);
  };
  usePlayerKeys(onKey, ready && !suspended && !tunerOpen && !helpOpen, editing);

  if (content.noCredits) return <NoCredits />;
  if (content.error && !ready) return <LoadFailed detail={content.error.message} />;
  if (!ready) return <LoadingOverlay />;

  const { notes, chords } = history.doc;
  const listenMarks = { verdictOf: listen.verdictOf, version: listen.version };
  // Always there once ready (useBeatGrid falls back to the default grid).
  const grid = history.doc.beats ?? beats.grid ?? defaultGrid(Math.max(duration, 1));
  const name = lessonDisplayName(
    meta.meta?.projectName,
    props.fallbackName,
    meta.meta?.fileName ?? '',
  );
  return (
    <div
      className="lp"
      ref={setRoot}
      data-fullscreen={settings.fullscreen}
      data-audio-source={settings.audioSource}
      data-synth={synth.status}
      data-synth-voices={synth.voices}
      data-speed={settings.speed}
      data-loop={
        settings.loop ? `${settings.loop.start.toFixed(2)}-${settings.loop.end.toFixed(2)}` : ''
      }
      data-tabs-version={content.version}
      data-mode={editing ? 'edit' : 'view'}
      data-dirty={save.dirty ? 'true' : 'false'}
      data-left-handed={leftHanded ? 'true' : 'false'}
      data-counting={practice.counting ? 'true' : 'false'}
      data-listen={listen.status.kind}
    >
      <PlayerHeader
        name={name || 'Untitled lesson'}
        ownerHandle={meta.meta?.ownerUsername ?? null}
        stars={meta.meta?.stars ?? null}
        starsCount={meta.meta?.starsCount ?? 0}
        opens={meta.stats?.loadsCount ?? null}
        viewers={meta.stats?.viewersCount ?? null}
        canRate={!isOwner && !signedOut}
        myStars={meta.myStars}
        rating={meta.rating}
        onRate={meta.rate}
        share={
          signedOut ? (
            <SignedOutInvite jobId={jobId} />
          ) : (
            meta.meta && (
              <ShareMenu
                jobId={jobId}
                role={session.user?.role ?? 'user'}
                isOwner={isOwner}
                sharedToExplore={meta.meta.sharedToExplore}
                sharedToPersonal={meta.meta.sharedToPersonal}
                version={settings.tabSource}
                {...(session.user ? { handle: session.user.handle } : {})}
                onShare={async (flag, on) => {
                  await api.patchJob(
                    jobId,
                    flag === 'sharedToExplore' ? { sharedToExplore: on } : { sharedToPersonal: on },
                  );
                  await queryClient.invalidateQueries({ queryKey: ['job-meta', jobId] });
                }}
                {...(meta.canEdit
                  ? {
                      onExport: () => {
                        setExportOpen(true);
                      },
                    }
                  : {})}
              />
            )
          )
        }
        rename={
          meta.canEdit && meta.meta
            ? {
                projectName: meta.meta.projectName,
                fileName: meta.meta.fileName,
                onSave: async (projectName) => {
                  await api.patchJob(jobId, { projectName });
                  await queryClient.invalidateQueries({ queryKey: ['job-meta', jobId] });
                },
              }
            : null
        }
      />
      <PlayerToolbar
        settings={settings}
        dispatch={dispatch}
        playing={videoState.playing}
        onPlayPause={practice.play}
        onToggleLoop={controls.toggleLoop}
        onAudioSource={(source: AudioSource) => {
          dispatch({ type: 'setAudioSource', source, stemAvailable: stemUrl !== null });
        }}
        stemAvailable={stemUrl !== null}
        capo={capo}
        canEdit={meta.canEdit}
        dirty={save.dirty}
        saving={save.saving}
        onSave={() => void save.save()}
        onTuner={() => {
          video?.pause();
          setTunerOpen(true);
        }}
        bus={bus}
        duration={duration}
        practice={
          <>
            <PracticePanel
              practice={practice}
              hasLoop={settings.loop !== null}
              leftHanded={leftHanded}
              onLeftHanded={setLeftHanded}
            />
            {sections.available && <SectionsPanel sections={sections} />}
            <ListenPanel listen={listen} />
          </>
        }
      />
      <ListenBar listen={listen} />
      {draft.offer && (
        <DraftBanner
          draft={draft.offer}
          onRestore={() => {
            // A draft from before bar-line editing keeps the lesson's bars.
            if (draft.offer)
              editor.replaceDoc('Restore unsaved edits', {
                beats: history.doc.beats,
                ...draft.offer.doc,
              });
            draft.taken();
          }}
          onDiscard={draft.dismiss}
        />
      )}
      {editing && (
        <EditBar
          editor={editor}
          jobId={jobId}
          tuning={tuning}
          capo={capo}
          onHelp={() => {
            setHelpOpen(true);
          }}
        />
      )}
      <div className="lp-body">
        <VideoPanel
          src={content.videoUrl}
          onVideoElement={setVideo}
          capo={capo}
          tuningName={lesson.tuningName}
          musicalKey={lesson.musicalKey}
          zoom={settings.videoZoom}
          onZoom={(zoom) => {
            dispatch({ type: 'setVideoZoom', zoom });
          }}
          onVideoError={onVideoError}
        />
        <section className="lp-tabview" aria-label="Tab view">
          <ViewSwitch view={view} onChange={setView} />
          {view === 'notation' ? (
            <Suspense
              fallback={
                <p className="lp-notation-status" role="status">
                  Loading the notation…
                </p>
              }
            >
              <NotationView
                bus={bus}
                notes={notes}
                chords={chords}
                grid={grid}
                title={name}
                tuning={tuning}
                capo={capo}
                musicalKey={lesson.musicalKey}
                onSeek={controls.seek}
              />
            </Suspense>
          ) : (
            <TimelineCanvas
              bus={bus}
              index={index}
              chords={chords}
              chordText={chordText}
              zoom={settings.zoom}
              loop={settings.loop}
              onSeek={controls.seek}
              onZoom={(zoom) => {
                dispatch({ type: 'zoomWheel', zoom });
              }}
              tuning={tuning}
              capo={capo}
              grid={grid}
              editing={editing ? editor.timeline : undefined}
              marks={listen.on ? listenMarks : null}
            />
          )}
          <SeekSlider bus={bus} duration={duration} onSeek={controls.seek} />
          <div className="lp-bottom">
            <SoundingNotes
              bus={bus}
              notes={notes}
              chords={chords}
              chordText={chordText}
              tuning={tuning}
              capo={capo}
            />
            <FretboardCanvas
              mirrored={leftHanded}
              bus={bus}
              notes={notes}
              tuning={tuning}
              capo={capo}
              choice={editing ? editor.choice : null}
              onPick={editor.moveTo}
            />
          </div>
        </section>
      </div>
      {stemUrl && <audio ref={setStem} src={stemUrl} preload="auto" />}
      <div className="lp-modals">
        {meta.canEdit && (
          <ExportDialog
            open={exportOpen}
            onClose={() => {
              setExportOpen(false);
            }}
            jobId={jobId}
            lessonName={name}
            lesson={exportLesson}
            videoUrl={content.videoUrl ?? null}
            playerVideo={video}
            themeElement={root}
          />
        )}
        <TunerModal
          open={tunerOpen && !suspended}
          onClose={() => {
            setTunerOpen(false);
          }}
          tuning={tuning}
          capo={capo}
        />
        <IntroModal owner={isOwner} suspended={suspended} />
        <KeyboardHelp
          open={helpOpen && !suspended}
          editing={canEditHere}
          onClose={() => {
            setHelpOpen(false);
          }}
        />
      </div>
      {save.notice && (
        <div className="lp-toast" role="status">
          {save.notice}
        </div>
      )}
    </div>
  );
}
