import {
  MESSAGES,
  STATUS_POLL_INTERVAL_MS,
  SUCCESS_DELAY_MS,
  type ProcessVideoResponse,
} from '@riffscribe/core';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useEffectEvent, useReducer } from 'react';
import { useSearchParams } from 'react-router';
import { api } from '../../api/endpoints';
import { ApiRequestError, session } from '../../api/session';
import { INITIAL_HOME_STATE, homeReducer, stateJobId, type HomeAction } from './homeFlow';

const JOB_PARAMS = ['jobId', 'job_id'] as const;

async function loadJob(jobId: string): Promise<HomeAction> {
  // Whose it is first (job-meta answers whoever may see the lesson): GET /api/job answers only
  // the owner, and asking it for someone else's shared lesson would log a 403 in the console.
  let meta: Awaited<ReturnType<typeof api.jobMeta>> | null = null;
  try {
    await session.renew();
    meta = await api.jobMeta(jobId);
  } catch (error) {
    if (error instanceof ApiRequestError && (error.status === 403 || error.status === 404)) {
      return { type: 'loadFailed', message: MESSAGES.failedToLoadJob };
    }
    // Anything else (a network fault): GET /api/job below says what it can.
  }
  if (meta && meta.ownerUid !== session.user?.uid) {
    // Someone else's lesson, shared (only finished lessons can be): it opens as the player does.
    return {
      type: 'loaded',
      status: 'completed',
      job: {
        jobId,
        requestId: '',
        fileName: meta.fileName,
        message: MESSAGES.processingComplete,
        stage: 'completed',
        progress: 100,
        error: null,
      },
    };
  }
  try {
    const { job } = await api.job(jobId);
    return {
      type: 'loaded',
      status: job.status,
      job: {
        jobId: job.id,
        requestId: job.requestId,
        fileName: job.fileName,
        message: job.message || MESSAGES.defaultProcessingMessage,
        stage: job.stage,
        progress: job.progress,
        error: job.error,
      },
    };
  } catch (error) {
    if (error instanceof ApiRequestError && (error.status === 403 || error.status === 404)) {
      return { type: 'loadFailed', message: MESSAGES.failedToLoadJob };
    }
    return { type: 'loadFailed', message: MESSAGES.failedToLoadJobStatus };
  }
}

/**
 * The home page's state machine with its side effects: the jobId/job_id and reset=1 query
 * parameters, loading a job by id, polling check-status every 10 s while processing (poll
 * errors are only logged), the live status stream beside it (GET /api/job-status-stream) and
 * the 2 s pause before success on desktop (none on mobile).
 */
export function useHomeFlow(options: { signedIn: boolean; isMobile: boolean }) {
  const { signedIn, isMobile } = options;
  const [state, dispatch] = useReducer(homeReducer, INITIAL_HOME_STATE);
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const wantedJobId = (params.get('jobId') ?? params.get('job_id') ?? '').trim() || null;
  const resetRequested = params.get('reset') === '1';
  const currentJobId = stateJobId(state);

  const setJobParam = useCallback(
    (jobId: string | null) => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const p of JOB_PARAMS) next.delete(p);
          next.delete('reset');
          if (jobId) next.set('jobId', jobId);
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );

  useEffect(() => {
    if (!resetRequested) return;
    dispatch({ type: 'reset' });
    setJobParam(null);
  }, [resetRequested, setJobParam]);

  // Reads the device and the shown job when the wanted job changes, without reacting to them:
  // turning a window narrow or wide must not reload the job.
  const openWanted = useEffectEvent((jobId: string) => {
    if (jobId === currentJobId) return undefined;
    if (isMobile) {
      dispatch({ type: 'openOnMobile', jobId });
      return undefined;
    }
    dispatch({ type: 'load', jobId });
    let cancelled = false;
    void loadJob(jobId).then((action) => {
      if (!cancelled) dispatch(action);
    });
    return () => {
      cancelled = true;
    };
  });

  useEffect(() => {
    if (resetRequested || !signedIn || !wantedJobId) return;
    return openWanted(wantedJobId);
  }, [wantedJobId, signedIn, resetRequested]);

  const pollingJobId = state.kind === 'processing' && !state.completing ? state.job.jobId : null;
  useEffect(() => {
    if (!pollingJobId) return;
    const timer = window.setInterval(() => {
      api.checkStatus(pollingJobId).then(
        (status) => {
          dispatch({ type: 'status', status });
        },
        (error: unknown) => {
          console.warn('check-status failed; polling continues', error);
        },
      );
    }, STATUS_POLL_INTERVAL_MS);
    return () => {
      window.clearInterval(timer);
    };
  }, [pollingJobId]);

  // The live channel: each stage as it finishes, and the lesson as soon as it is ready. The
  // check-status polling above keeps running beside it, so a stream that cannot open or drops
  // leaves the page where the spec puts it, without an error shown.
  useEffect(() => {
    if (!pollingJobId) return;
    const controller = new AbortController();
    api
      .watchStatus(
        pollingJobId,
        (status) => {
          dispatch({ type: 'status', status });
        },
        controller.signal,
      )
      .then(
        (ended) => {
          if (!ended) console.info('job status stream closed; check-status polling continues');
        },
        (error: unknown) => {
          if (!controller.signal.aborted)
            console.info('job status stream failed; check-status polling continues', error);
        },
      );
    return () => {
      controller.abort();
    };
  }, [pollingJobId]);

  const completing = state.kind === 'processing' && state.completing;
  useEffect(() => {
    if (!completing) return;
    const timer = window.setTimeout(
      () => {
        dispatch({ type: 'completeShown' });
      },
      isMobile ? 0 : SUCCESS_DELAY_MS,
    );
    return () => {
      window.clearTimeout(timer);
    };
  }, [completing, isMobile]);

  return {
    state,
    /** The submit sequence finished: show processing and keep the job in the address. */
    started: useCallback(
      (response: ProcessVideoResponse, fileName: string) => {
        dispatch({
          type: 'started',
          job: { jobId: response.jobId, requestId: response.requestId, fileName },
        });
        setJobParam(response.jobId);
        void queryClient.invalidateQueries({ queryKey: ['my-credits'] });
      },
      [setJobParam, queryClient],
    ),
    /** The upload went through but the start call failed: the error state, with its message. */
    startFailed: useCallback((error: string, fileName: string, requestId: string | null) => {
      dispatch({ type: 'startFailed', error, fileName, requestId });
    }, []),
    /** Opens a job typed into the job id entry. */
    open: useCallback(
      (jobId: string) => {
        setJobParam(jobId);
      },
      [setJobParam],
    ),
    /** Back to the upload state, with the job parameters removed from the address. */
    reset: useCallback(() => {
      dispatch({ type: 'reset' });
      setJobParam(null);
    }, [setJobParam]),
  };
}
