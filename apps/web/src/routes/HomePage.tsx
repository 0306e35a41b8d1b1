import { HomeUploadSection } from '../features/home/HomeUploadSection';
import { Hero } from '../features/landing/Hero';
import { HowItWorks } from '../features/landing/HowItWorks';

/** The landing page: headline, #upload (sign-in, wizard, processing, results) and #how-it-works. */
export function HomePage() {
  return (
    <main className="main home" id="main">
      <Hero />
      <HomeUploadSection />
      <HowItWorks />
    </main>
  );
}
