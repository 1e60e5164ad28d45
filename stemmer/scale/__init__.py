"""Stage 6: whole crawls, one site per task, on local processes (joblib) or a Dask cluster."""
from stemmer.scale.jobs import SiteFailure
from stemmer.scale.runner import AnalyzeReport, Progress, SiteDone, analyze_crawl, extract_crawl

__all__ = ["AnalyzeReport", "Progress", "SiteDone", "SiteFailure", "analyze_crawl", "extract_crawl"]
