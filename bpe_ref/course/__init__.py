"""The course's runtime in JupyterLab: the workspace, the lab and hub launchers, the workbooks'
kernel helper and demo time limit, the token viewer and the plots."""
