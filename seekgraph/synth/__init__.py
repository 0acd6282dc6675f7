"""Task synthesis: table/page ingest, WebLeaper trees and tasks, WebShaper Knowledge Projections."""
