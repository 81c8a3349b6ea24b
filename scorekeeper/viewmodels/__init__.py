"""What the pages show, below the views that draw them: the data of a page (a
view model), the rows of its CSV file and the answer that sends its PDF.

A blueprint in scorekeeper/views/ parses the request, asks one of these and
renders the template; none of these modules imports a view.
`period` (the period a group's ledger is asked for), `group_ledger` (a group's
ledger and its "Mark as paid"), `statistics` (a group's figures as tables),
`match_sheet` (how a match's balances come about) and `downloads` (CSV rows,
file names, and the CSV and PDF answers).
"""
