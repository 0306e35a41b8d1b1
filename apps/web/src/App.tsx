import { lazy, Suspense } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, Route, Routes } from 'react-router';
import { CreditsPage } from './routes/CreditsPage';
import { ExplorePage } from './routes/ExplorePage';
import { HomePage } from './routes/HomePage';
import { MyVideosPage } from './routes/MyVideosPage';
import { PersonalPage } from './routes/PersonalPage';
import { Footer } from './ui/Footer';
import { Header } from './ui/Header';
import { ScrollToHash } from './ui/ScrollToHash';

/**
 * The player (with its editor, synth and exports) and the admin console load when first opened:
 * the landing page, Explore and a new visitor's first page need none of their code.
 */
const LessonRoute = lazy(() =>
  import('./features/player/LessonRoute').then((m) => ({ default: m.LessonRoute })),
);
const AdminPage = lazy(() => import('./routes/AdminPage').then((m) => ({ default: m.AdminPage })));

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <ScrollToHash />
        <Header />
        <Routes>
          <Route
            path="/lesson/:jobId"
            element={
              <Suspense fallback={<RouteLoading />}>
                <LessonRoute />
              </Suspense>
            }
          />
          <Route path="/explore" element={<ExplorePage />} />
          <Route path="/u/:handle" element={<PersonalPage />} />
          <Route path="/my-videos" element={<MyVideosPage />} />
          <Route path="/credits" element={<CreditsPage />} />
          <Route
            path="/admin"
            element={
              <Suspense fallback={<RouteLoading />}>
                <AdminPage />
              </Suspense>
            }
          />
          <Route path="*" element={<HomePage />} />
        </Routes>
        <Footer />
      </BrowserRouter>
    </QueryClientProvider>
  );
}

/** What a lazily loaded page shows while its code arrives (a moment on a slow connection). */
function RouteLoading() {
  return (
    <main className="main page" id="main">
      <p className="muted" role="status">
        Loading…
      </p>
    </main>
  );
}
