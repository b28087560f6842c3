"""The one door out: each output style's escaper, the one writer of tables in every style (whole writes
or a loud failure), the figures, the HTML of the results page, and the names a paper table prints."""
