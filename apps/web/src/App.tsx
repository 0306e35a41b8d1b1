import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, Route, Routes } from 'react-router';
import { LessonRoute } from './features/player/LessonRoute';
import { AdminPage } from './routes/AdminPage';
import { CreditsPage } from './routes/CreditsPage';
import { ExplorePage } from './routes/ExplorePage';
import { HomePage } from './routes/HomePage';
import { MyVideosPage } from './routes/MyVideosPage';
import { Footer } from './ui/Footer';
import { Header } from './ui/Header';
import { ScrollToHash } from './ui/ScrollToHash';

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
          <Route path="/lesson/:jobId" element={<LessonRoute />} />
          <Route path="/explore" element={<ExplorePage />} />
          <Route path="/my-videos" element={<MyVideosPage />} />
          <Route path="/credits" element={<CreditsPage />} />
          <Route path="/admin" element={<AdminPage />} />
          <Route path="*" element={<HomePage />} />
        </Routes>
        <Footer />
      </BrowserRouter>
    </QueryClientProvider>
  );
}
