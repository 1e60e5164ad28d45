"""Stage 3: layout keys, page similarity and clustering of a site's pages."""
from stemmer.cluster.clustering import cluster_pages
from stemmer.cluster.keys import KeyMaker
from stemmer.cluster.similarity import layout_sequence, similarity, similarity_matrix

__all__ = ["KeyMaker", "cluster_pages", "layout_sequence", "similarity", "similarity_matrix"]
